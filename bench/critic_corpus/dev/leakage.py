"""Preprocessing or feature selection fitted on all rows before the train/test split."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="leakage-scaler-housing",
        family="leakage",
        twin="leakage-scaler-housing-sound",
        note="StandardScaler.fit_transform on every row, then train_test_split.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.linear_model import Ridge
            from sklearn.metrics import r2_score
            from sklearn.model_selection import train_test_split
            from sklearn.preprocessing import StandardScaler

            rng = np.random.default_rng(0)
            n = 800
            houses = pd.DataFrame({
                "sqft": rng.normal(1800, 450, n),
                "bedrooms": rng.integers(1, 6, n),
                "age_years": rng.uniform(0, 80, n),
                "dist_center_km": rng.gamma(2.0, 4.0, n),
            })
            houses["price"] = (
                120 * houses.sqft + 8000 * houses.bedrooms - 900 * houses.age_years
                - 4000 * houses.dist_center_km + rng.normal(0, 40000, n)
            )

            X = houses.drop(columns="price")
            y = houses["price"]
            X_scaled = StandardScaler().fit_transform(X)
            X_train, X_test, y_train, y_test = train_test_split(
                X_scaled, y, test_size=0.25, random_state=42
            )

            model = Ridge(alpha=1.0).fit(X_train, y_train)
            print(f"Test R^2: {r2_score(y_test, model.predict(X_test)):.3f}")
        """),
    ),
    Case(
        id="leakage-scaler-housing-sound",
        family=None,
        twin="leakage-scaler-housing",
        note="Split first; the scaler is fitted on the training rows and only applied to the test.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.linear_model import Ridge
            from sklearn.metrics import r2_score
            from sklearn.model_selection import train_test_split
            from sklearn.preprocessing import StandardScaler

            rng = np.random.default_rng(0)
            n = 800
            houses = pd.DataFrame({
                "sqft": rng.normal(1800, 450, n),
                "bedrooms": rng.integers(1, 6, n),
                "age_years": rng.uniform(0, 80, n),
                "dist_center_km": rng.gamma(2.0, 4.0, n),
            })
            houses["price"] = (
                120 * houses.sqft + 8000 * houses.bedrooms - 900 * houses.age_years
                - 4000 * houses.dist_center_km + rng.normal(0, 40000, n)
            )

            X = houses.drop(columns="price")
            y = houses["price"]
            X_train, X_test, y_train, y_test = train_test_split(
                X, y, test_size=0.25, random_state=42
            )
            scaler = StandardScaler().fit(X_train)
            X_train_s, X_test_s = scaler.transform(X_train), scaler.transform(X_test)

            model = Ridge(alpha=1.0).fit(X_train_s, y_train)
            print(f"Test R^2: {r2_score(y_test, model.predict(X_test_s)):.3f}")
        """),
    ),
    Case(
        id="leakage-selectkbest-expression",
        family="leakage",
        twin="leakage-selectkbest-expression-sound",
        note="SelectKBest picks 25 of 5000 genes using all samples' labels, then CV on the "
        "selected genes: high accuracy on pure noise.",
        code=dedent("""\
            import numpy as np
            from sklearn.feature_selection import SelectKBest, f_classif
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import cross_val_score

            rng = np.random.default_rng(7)
            n_samples, n_genes = 90, 5000
            expr = rng.normal(size=(n_samples, n_genes))     # log2 expression, centred
            responder = rng.integers(0, 2, n_samples)          # 1 = responded to therapy

            top_genes = SelectKBest(f_classif, k=25).fit_transform(expr, responder)
            acc = cross_val_score(LogisticRegression(max_iter=1000), top_genes, responder, cv=5)
            print(f"5-fold CV accuracy, 25-gene signature: {acc.mean():.2f} +/- {acc.std():.2f}")
        """),
    ),
    Case(
        id="leakage-selectkbest-expression-sound",
        family=None,
        twin="leakage-selectkbest-expression",
        note="Gene selection is a Pipeline step, so it is refitted inside every CV fold.",
        code=dedent("""\
            import numpy as np
            from sklearn.feature_selection import SelectKBest, f_classif
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import cross_val_score
            from sklearn.pipeline import make_pipeline

            rng = np.random.default_rng(7)
            n_samples, n_genes = 90, 5000
            expr = rng.normal(size=(n_samples, n_genes))     # log2 expression, centred
            responder = rng.integers(0, 2, n_samples)          # 1 = responded to therapy

            signature_model = make_pipeline(
                SelectKBest(f_classif, k=25), LogisticRegression(max_iter=1000)
            )
            acc = cross_val_score(signature_model, expr, responder, cv=5)
            print(f"5-fold CV accuracy, 25-gene signature: {acc.mean():.2f} +/- {acc.std():.2f}")
        """),
    ),
    Case(
        id="leakage-zscore-sensor",
        family="leakage",
        twin="leakage-zscore-sensor-sound",
        note="Pandas z-scoring with the mean/std of all hours (including the later test hours, "
        "which drift) before a chronological split.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score

            rng = np.random.default_rng(12)
            n = 3000
            drift = np.linspace(0, 3, n)
            sensors = pd.DataFrame({
                "vibration": rng.normal(1.0, 0.2, n) + 0.3 * drift,
                "temp_c": rng.normal(60, 4, n) + 2 * drift,
                "pressure_kpa": rng.normal(101, 1.5, n),
                "current_a": rng.normal(12, 1, n) + 0.5 * drift,
            }, index=pd.date_range("2024-01-01", periods=n, freq="h"))
            logit = -4 + 2.5 * (sensors.vibration - 1) + 0.15 * (sensors.temp_c - 60)
            sensors["fault"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)

            features = ["vibration", "temp_c", "pressure_kpa", "current_a"]
            cols = sensors[features]
            sensors[features] = (cols - cols.mean()) / cols.std()

            cut = int(len(sensors) * 0.8)
            train, test = sensors.iloc[:cut], sensors.iloc[cut:]
            clf = LogisticRegression().fit(train[features], train["fault"])
            auc = roc_auc_score(test["fault"], clf.predict_proba(test[features])[:, 1])
            print(f"AUC on the last 20% of hours: {auc:.3f}")
        """),
    ),
    Case(
        id="leakage-zscore-sensor-sound",
        family=None,
        twin="leakage-zscore-sensor",
        note="Chronological split first; z-scores use the training hours' mean and std only.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score

            rng = np.random.default_rng(12)
            n = 3000
            drift = np.linspace(0, 3, n)
            sensors = pd.DataFrame({
                "vibration": rng.normal(1.0, 0.2, n) + 0.3 * drift,
                "temp_c": rng.normal(60, 4, n) + 2 * drift,
                "pressure_kpa": rng.normal(101, 1.5, n),
                "current_a": rng.normal(12, 1, n) + 0.5 * drift,
            }, index=pd.date_range("2024-01-01", periods=n, freq="h"))
            logit = -4 + 2.5 * (sensors.vibration - 1) + 0.15 * (sensors.temp_c - 60)
            sensors["fault"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)

            features = ["vibration", "temp_c", "pressure_kpa", "current_a"]
            cut = int(len(sensors) * 0.8)
            train, test = sensors.iloc[:cut].copy(), sensors.iloc[cut:].copy()
            mu, sd = train[features].mean(), train[features].std()
            train[features] = (train[features] - mu) / sd
            test[features] = (test[features] - mu) / sd

            clf = LogisticRegression().fit(train[features], train["fault"])
            auc = roc_auc_score(test["fault"], clf.predict_proba(test[features])[:, 1])
            print(f"AUC on the last 20% of hours: {auc:.3f}")
        """),
    ),
    Case(
        id="leakage-target-encoding-leads",
        family="leakage",
        twin="leakage-target-encoding-leads-sound",
        note="City target encoding (mean conversion per city) computed on the full frame, "
        "test rows' own labels included, before the split.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.ensemble import GradientBoostingClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            rng = np.random.default_rng(3)
            n = 4000
            leads = pd.DataFrame({
                "city": rng.choice([f"city_{i:03d}" for i in range(600)], n),
                "visits": rng.poisson(3, n),
                "email_opens": rng.poisson(1.5, n),
            })
            p = 1 / (1 + np.exp(-(-2 + 0.25 * leads.visits + 0.3 * leads.email_opens)))
            leads["converted"] = (rng.random(n) < p).astype(int)

            leads["city_rate"] = leads.groupby("city")["converted"].transform("mean")

            X = leads[["visits", "email_opens", "city_rate"]]
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, leads.converted, test_size=0.3, random_state=1, stratify=leads.converted
            )
            gb = GradientBoostingClassifier(random_state=0).fit(X_tr, y_tr)
            print("test AUC:", round(roc_auc_score(y_te, gb.predict_proba(X_te)[:, 1]), 3))
        """),
    ),
    Case(
        id="leakage-target-encoding-leads-sound",
        family=None,
        twin="leakage-target-encoding-leads",
        note="City conversion rates learned from the training leads only (smoothed), then "
        "mapped onto the test leads.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.ensemble import GradientBoostingClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            rng = np.random.default_rng(3)
            n = 4000
            leads = pd.DataFrame({
                "city": rng.choice([f"city_{i:03d}" for i in range(600)], n),
                "visits": rng.poisson(3, n),
                "email_opens": rng.poisson(1.5, n),
            })
            p = 1 / (1 + np.exp(-(-2 + 0.25 * leads.visits + 0.3 * leads.email_opens)))
            leads["converted"] = (rng.random(n) < p).astype(int)

            train, test = train_test_split(
                leads, test_size=0.3, random_state=1, stratify=leads.converted
            )
            prior, m = train.converted.mean(), 20
            stats_by_city = train.groupby("city")["converted"].agg(["sum", "count"])
            city_rate = (stats_by_city["sum"] + m * prior) / (stats_by_city["count"] + m)
            train = train.assign(city_rate=train.city.map(city_rate))
            test = test.assign(city_rate=test.city.map(city_rate).fillna(prior))

            features = ["visits", "email_opens", "city_rate"]
            gb = GradientBoostingClassifier(random_state=0).fit(train[features], train.converted)
            auc = roc_auc_score(test.converted, gb.predict_proba(test[features])[:, 1])
            print("test AUC:", round(auc, 3))
        """),
    ),
]

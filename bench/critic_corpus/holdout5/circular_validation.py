"""Circular validation, holdout5 idioms: the degree and training window of a numpy
Polynomial.fit ridership curve picked from a dict comprehension of test-block errors, and a
hand-rolled ParameterGrid loop over a TF-IDF + LinearSVC ticket router whose best test
accuracy is quoted."""

from textwrap import dedent

from bench.critic_corpus import Case

_RIDERSHIP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6069)
days = pd.date_range("2022-01-01", periods=730, freq="D")
doy = days.day_of_year.to_numpy()
tmax = 14 + 11 * np.sin(2 * np.pi * (doy - 110) / 365) + rng.normal(0, 3.5, len(days))
weekday = days.day_of_week.to_numpy() < 5
# riders (thousands): commuters plus leisure trips that rise in mild weather
riders = (310 + 95 * weekday - 0.35 * (tmax - 19) ** 2 + 2.0 * tmax
          + rng.normal(0, 38, len(days)))
metro = pd.DataFrame({"date": days, "tmax_c": tmax.round(1), "weekday": weekday,
                      "riders_k": riders.round(1)})
"""

_TICKETS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9090)
vocab = {
    "billing": "invoice charge refund card payment double charged price vat receipt".split(),
    "technical": "error crash login app update bug slow reset password screen".split(),
    "shipping": "parcel courier tracking delivery late address lost damaged box".split(),
    "account": "email profile delete close subscription plan upgrade name settings".split(),
}
filler = ("hi hello please help thanks urgent issue problem order account since yesterday "
          "again still not working my the a").split()
topics = list(vocab)
rows = []
for _ in range(1000):
    topic = topics[rng.integers(4)]
    # customers mention other topics too, so some tickets are genuinely ambiguous
    other = topics[rng.integers(4)]
    words = (list(rng.choice(vocab[topic], 2)) + list(rng.choice(vocab[other], 2))
             + list(rng.choice(filler, 6)))
    rng.shuffle(words)
    rows.append((" ".join(words), topic))
tickets = pd.DataFrame(rows, columns=["text", "queue"])
"""

CASES: list[Case] = [
    Case(
        id="circular-polyfit-degree-on-test-ridership",
        family="circular_validation",
        twin="circular-polyfit-degree-on-test-ridership-sound",
        split="holdout5",
        setup=_RIDERSHIP,
        note="Degree and training window are the pair (of 48) with the lowest RMSE on the final "
        "45 test days, and that minimum is quoted as the expected forecast error.",
        code=dedent("""\
            from numpy.polynomial import Polynomial

            train, test = metro.iloc[:-45], metro.iloc[-45:]
            windows = (42, 60, 90, 120, 180, 270, 365, 500)
            configs = [(deg, win) for deg in range(1, 7) for win in windows]


            def fit_rmse(deg, window, fit_on, score_on):
                fit_on = fit_on.iloc[-window:]   # only the most recent `window` days
                errs = []
                for wd in (True, False):   # one temperature curve for weekdays, one for weekends
                    f = fit_on[fit_on.weekday == wd]
                    s = score_on[score_on.weekday == wd]
                    curve = Polynomial.fit(f.tmax_c, f.riders_k, deg)
                    errs.append(s.riders_k - curve(s.tmax_c))
                return float(np.sqrt(np.mean(np.concatenate(errs) ** 2)))


            test_rmse = {cfg: fit_rmse(*cfg, train, test) for cfg in configs}
            best = min(test_rmse, key=test_rmse.get)
            print(f"chosen (degree, training window in days): {best}")
            print(f"expected forecast error: RMSE = {test_rmse[best]:.2f}k riders/day")
        """),
    ),
    Case(
        id="circular-polyfit-degree-on-test-ridership-sound",
        family=None,
        twin="circular-polyfit-degree-on-test-ridership",
        split="holdout5",
        setup=_RIDERSHIP,
        note="Degree and window are chosen on a 45-day validation block before the test block; "
        "the curve is then refitted on the training days and the test block is scored once.",
        code=dedent("""\
            from numpy.polynomial import Polynomial

            train, test = metro.iloc[:-45], metro.iloc[-45:]
            fit_part, valid = train.iloc[:-45], train.iloc[-45:]
            windows = (42, 60, 90, 120, 180, 270, 365, 500)
            configs = [(deg, win) for deg in range(1, 7) for win in windows]


            def fit_rmse(deg, window, fit_on, score_on):
                fit_on = fit_on.iloc[-window:]   # only the most recent `window` days
                errs = []
                for wd in (True, False):   # one temperature curve for weekdays, one for weekends
                    f = fit_on[fit_on.weekday == wd]
                    s = score_on[score_on.weekday == wd]
                    curve = Polynomial.fit(f.tmax_c, f.riders_k, deg)
                    errs.append(s.riders_k - curve(s.tmax_c))
                return float(np.sqrt(np.mean(np.concatenate(errs) ** 2)))


            valid_rmse = {cfg: fit_rmse(*cfg, fit_part, valid) for cfg in configs}
            best = min(valid_rmse, key=valid_rmse.get)
            print(f"chosen (degree, training window in days) on the validation block: {best}")
            print(f"expected forecast error: RMSE = {fit_rmse(*best, train, test):.2f}k riders/day")
        """),
    ),
    Case(
        id="circular-parametergrid-loop-ticket-router",
        family="circular_validation",
        twin="circular-parametergrid-loop-ticket-router-sound",
        split="holdout5",
        setup=_TICKETS,
        note="Each of 24 TF-IDF/SVM settings is fitted on the training tickets and scored on the "
        "test tickets; the best test accuracy is reported as the router's accuracy.",
        code=dedent("""\
            from sklearn.feature_extraction.text import TfidfVectorizer
            from sklearn.model_selection import ParameterGrid, train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.svm import LinearSVC

            X_tr, X_te, y_tr, y_te = train_test_split(tickets.text, tickets.queue,
                                                      test_size=0.25, random_state=17)
            router = Pipeline([("tfidf", TfidfVectorizer()), ("svm", LinearSVC())])
            grid = ParameterGrid({"tfidf__ngram_range": [(1, 1), (1, 2)],
                                  "tfidf__sublinear_tf": [True, False],
                                  "svm__C": [0.01, 0.03, 0.1, 0.3, 1, 3]})
            results = []
            for params in grid:
                router.set_params(**params).fit(X_tr, y_tr)
                results.append((router.score(X_te, y_te), params))
            best_acc, best_params = max(results, key=lambda r: r[0])
            print(f"best settings: {best_params}")
            print(f"routing accuracy on unseen tickets: {best_acc:.3f}")
        """),
    ),
    Case(
        id="circular-parametergrid-loop-ticket-router-sound",
        family=None,
        twin="circular-parametergrid-loop-ticket-router",
        split="holdout5",
        setup=_TICKETS,
        note="The same 24 settings are compared by 3-fold CV inside the training tickets "
        "(GridSearchCV); the refitted winner is scored on the test tickets once.",
        code=dedent("""\
            from sklearn.feature_extraction.text import TfidfVectorizer
            from sklearn.model_selection import GridSearchCV, train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.svm import LinearSVC

            X_tr, X_te, y_tr, y_te = train_test_split(tickets.text, tickets.queue,
                                                      test_size=0.25, random_state=17)
            router = Pipeline([("tfidf", TfidfVectorizer()), ("svm", LinearSVC())])
            search = GridSearchCV(router, {"tfidf__ngram_range": [(1, 1), (1, 2)],
                                           "tfidf__sublinear_tf": [True, False],
                                           "svm__C": [0.01, 0.03, 0.1, 0.3, 1, 3]}, cv=3)
            search.fit(X_tr, y_tr)
            print(f"best settings (3-fold CV on training tickets): {search.best_params_}")
            print(f"routing accuracy on unseen tickets: {search.score(X_te, y_te):.3f}")
        """),
    ),
]

"""Data loss, held-out idioms: groupby silently dropping NaN keys (dropna=True by default),
and read_csv(on_bad_lines='skip') discarding malformed log lines."""

from textwrap import dedent

from bench.critic_corpus import Case

_EMP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(616)
n = 2000
emp = pd.DataFrame({
    "department": rng.choice(["Engineering", "Sales", "Operations", "Support"], n),
    "salary": rng.normal(72000, 15000, n).round(-2),
})
legacy = rng.random(n) < 0.22          # migrated from the old HRIS without a department
emp["left_within_year"] = (rng.random(n) < np.where(legacy, 0.35, 0.12)).astype(int)
emp["department"] = emp["department"].mask(legacy)
"""

_LOG = """\
import io

import numpy as np
import pandas as pd

rng = np.random.default_rng(8088)
agents = ["curl/8.4.0", "python-requests/2.31", "Googlebot/2.1",
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120"]
paths = ["/", "/search", "/cart", "/checkout", "/api/items"]
lines = ["ts,path,status,bytes,user_agent", "2024-05-01T00:00:00,/health,200,12,kube-probe/1.29"]
for i in range(1, 3000):
    agent = rng.choice(agents, p=[0.2, 0.25, 0.15, 0.4])
    path = rng.choice(paths)
    fail = rng.random() < (0.09 if agent.startswith("Mozilla") and path == "/checkout" else 0.02)
    status = 502 if fail else 200
    ts = pd.Timestamp("2024-05-01") + pd.Timedelta(seconds=int(i * 7))
    lines.append(f"{ts:%Y-%m-%dT%H:%M:%S},{path},{status},{int(rng.gamma(2, 900))},{agent}")
raw_log = "\\n".join(lines)
"""

CASES: list[Case] = [
    Case(
        id="dataloss-groupby-nan-department",
        family="data_loss",
        twin="dataloss-groupby-nan-department-sound",
        split="holdout",
        setup=_EMP,
        note="groupby drops the 22% of employees with no department (dropna=True default); "
        "headcount shares and company attrition are computed on the rest.",
        code=dedent("""\
            summary = emp.groupby("department").agg(
                headcount=("salary", "size"),
                median_salary=("salary", "median"),
                attrition=("left_within_year", "mean"),
            )
            summary["share_of_headcount"] = summary.headcount / summary.headcount.sum()
            weights = summary.headcount / summary.headcount.sum()
            company_attrition = (summary.attrition * weights).sum()
            print(summary.round(3))
            print(f"company-wide attrition: {company_attrition:.1%}")
        """),
    ),
    Case(
        id="dataloss-groupby-nan-department-sound",
        family=None,
        twin="dataloss-groupby-nan-department",
        split="holdout",
        setup=_EMP,
        note="Missing departments counted and kept as their own group (dropna=False), so "
        "shares and attrition cover every employee.",
        code=dedent("""\
            print(f"department not recorded for {emp.department.isna().sum()} of {len(emp)} "
                  f"employees")
            summary = emp.groupby("department", dropna=False).agg(
                headcount=("salary", "size"),
                median_salary=("salary", "median"),
                attrition=("left_within_year", "mean"),
            )
            summary["share_of_headcount"] = summary.headcount / summary.headcount.sum()
            print(summary.round(3))
            print(f"company-wide attrition: {emp.left_within_year.mean():.1%}")
        """),
    ),
    Case(
        id="dataloss-read-csv-skip-bad-lines",
        family="data_loss",
        twin="dataloss-read-csv-skip-bad-lines-sound",
        split="holdout",
        setup=_LOG,
        note="on_bad_lines='skip' silently drops every line whose user agent contains a comma "
        "(~40% of requests, all browser traffic) before the error-rate summary.",
        code=dedent("""\
            hits = pd.read_csv(io.StringIO(raw_log), on_bad_lines="skip", parse_dates=["ts"])
            by_path = hits.groupby("path").agg(
                requests=("status", "size"),
                error_rate=("status", lambda s: (s >= 500).mean()),
                mean_kb=("bytes", lambda b: b.mean() / 1024),
            )
            print(by_path.round(3))
            print(f"overall 5xx rate: {(hits.status >= 500).mean():.2%}")
        """),
    ),
    Case(
        id="dataloss-read-csv-skip-bad-lines-sound",
        family=None,
        twin="dataloss-read-csv-skip-bad-lines",
        split="holdout",
        setup=_LOG,
        note="Malformed lines are repaired (extra fields re-joined into the user agent) by an "
        "on_bad_lines callable, and their number is printed.",
        code=dedent("""\
            repaired = []

            def rejoin_agent(fields):
                repaired.append(fields)
                return fields[:4] + [",".join(fields[4:])]

            hits = pd.read_csv(io.StringIO(raw_log), on_bad_lines=rejoin_agent,
                               engine="python", parse_dates=["ts"])
            print(f"{len(hits)} requests parsed; {len(repaired)} lines had commas in the "
                  f"user agent and were repaired")
            by_path = hits.groupby("path").agg(
                requests=("status", "size"),
                error_rate=("status", lambda s: (s >= 500).mean()),
                mean_kb=("bytes", lambda b: b.mean() / 1024),
            )
            print(by_path.round(3))
            print(f"overall 5xx rate: {(hits.status >= 500).mean():.2%}")
        """),
    ),
]

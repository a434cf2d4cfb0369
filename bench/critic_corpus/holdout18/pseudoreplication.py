from bench.critic_corpus import Case

_ONBOARD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n_users = 160
user_ids = np.arange(n_users) + 880000
variant = rng.choice(["checklist", "guided_tour"], size=n_users)
user_speed = rng.normal(0, 0.55, n_users)
n_events = rng.integers(4, 40, n_users)
steps = ["profile", "connect_calendar", "invite_team", "first_project", "template_pick"]
rows = []
for uid, v, u, k in zip(user_ids, variant, user_speed, n_events):
    log_s = 3.4 + u + rng.normal(0, 0.5, k)
    rows.append(pd.DataFrame({"user_id": uid, "variant": v,
                              "step": rng.choice(steps, k), "seconds_on_step": np.exp(log_s)}))
step_events = pd.concat(rows, ignore_index=True)
step_events["seconds_on_step"] = step_events["seconds_on_step"].round(1)
step_events["ts"] = (pd.Timestamp("2024-05-06")
                     + pd.to_timedelta(rng.integers(0, 14 * 86400, len(step_events)), unit="s"))
'''

_AGENT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(10)
agents = pd.DataFrame({"agent_id": [f"ag{i:02d}" for i in range(20)],
                       "cohort": ["new_playbook"] * 10 + ["current"] * 10})
agents["skill"] = rng.normal(0, 0.7, len(agents))
chats = []
for a in agents.itertuples():
    k = int(rng.integers(30, 90))
    p_sat = 1 / (1 + np.exp(-(1.1 + a.skill)))
    chats.append(pd.DataFrame({
        "chat_id": rng.integers(10**7, 10**8, k),
        "agent_id": a.agent_id,
        "cohort": a.cohort,
        "csat": np.where(rng.random(k) < p_sat, rng.choice([4, 5], k), rng.choice([1, 2, 3], k)),
        "handle_min": np.round(rng.gamma(3, 4, k), 1),
    }))
chats = pd.concat(chats, ignore_index=True)
'''

CASES: list[Case] = [
    Case(
        id="h18-pseudoreplication-onboarding-step-time",
        family="pseudoreplication",
        setup=_ONBOARD_SETUP,
        code='''from scipy import stats

step_events["log_s"] = np.log(step_events["seconds_on_step"])
tour = step_events.loc[step_events["variant"] == "guided_tour", "log_s"]
checklist = step_events.loc[step_events["variant"] == "checklist", "log_s"]

t, p = stats.ttest_ind(tour, checklist, equal_var=False)
ratio = np.exp(tour.mean() - checklist.mean())
print(f"step events: tour={len(tour):,}, checklist={len(checklist):,}")
print(f"guided tour time per step = {ratio:.2f}x checklist (geometric mean), "
      f"t={t:.2f}, p={p:.2g}")
''',
        twin="h18-pseudoreplication-onboarding-step-time-ok",
        note="Users were randomised but the t-test treats every step event as independent, so "
             "users with many events dominate and n is inflated from ~160 users to thousands.",
        split="holdout18",
    ),
    Case(
        id="h18-pseudoreplication-onboarding-step-time-ok",
        family=None,
        setup=_ONBOARD_SETUP,
        code='''from scipy import stats

step_events["log_s"] = np.log(step_events["seconds_on_step"])
per_user = step_events.groupby(["user_id", "variant"], as_index=False)["log_s"].mean()
tour = per_user.loc[per_user["variant"] == "guided_tour", "log_s"]
checklist = per_user.loc[per_user["variant"] == "checklist", "log_s"]

t, p = stats.ttest_ind(tour, checklist, equal_var=False)
ratio = np.exp(tour.mean() - checklist.mean())
print(f"users: tour={len(tour)}, checklist={len(checklist)} "
      f"({len(step_events):,} step events aggregated per user)")
print(f"guided tour time per step = {ratio:.2f}x checklist (geometric mean), "
      f"t={t:.2f}, p={p:.2g}")
''',
        twin="h18-pseudoreplication-onboarding-step-time",
        note="Collapses the step events to one mean log-time per user (the randomised unit) "
             "before the Welch t-test.",
        split="holdout18",
    ),
    Case(
        id="h18-pseudoreplication-support-playbook-chi2",
        family="pseudoreplication",
        setup=_AGENT_SETUP,
        code='''from scipy.stats import chi2_contingency

chats["satisfied"] = chats["csat"] >= 4
tab = pd.crosstab(chats["cohort"], chats["satisfied"])
chi2, p, dof, _ = chi2_contingency(tab)

rates = chats.groupby("cohort")["satisfied"].mean()
print(tab)
print(f"\\nCSAT 4-5: new playbook {rates['new_playbook']:.1%} vs current {rates['current']:.1%}"
      f"  (chi2={chi2:.2f}, p={p:.4f}, n={len(chats):,} chats)")
''',
        twin="h18-pseudoreplication-support-playbook-chi2-ok",
        note="The playbook was assigned to 10 of 20 agents, but the chi-square test counts each "
             "of ~1,200 chats as independent, ignoring that chats cluster within agents.",
        split="holdout18",
    ),
    Case(
        id="h18-pseudoreplication-support-playbook-chi2-ok",
        family=None,
        setup=_AGENT_SETUP,
        code='''from scipy.stats import ttest_ind

chats["satisfied"] = chats["csat"] >= 4
per_agent = chats.groupby(["agent_id", "cohort"], as_index=False).agg(
    chats=("chat_id", "size"), sat_rate=("satisfied", "mean"))

new = per_agent.loc[per_agent["cohort"] == "new_playbook", "sat_rate"]
cur = per_agent.loc[per_agent["cohort"] == "current", "sat_rate"]
t, p = ttest_ind(new, cur, equal_var=False)
print(per_agent.groupby("cohort")["sat_rate"].describe()[["count", "mean", "std"]].round(3))
print(f"\\nCSAT 4-5 per agent: new playbook {new.mean():.1%} vs current {cur.mean():.1%}"
      f"  (Welch t={t:.2f}, p={p:.3f}, n={len(per_agent)} agents)")
''',
        twin="h18-pseudoreplication-support-playbook-chi2",
        note="Analyses at the level the playbook was assigned: one satisfaction rate per agent, "
             "compared with a Welch t-test across the 20 agents.",
        split="holdout18",
    ),
]

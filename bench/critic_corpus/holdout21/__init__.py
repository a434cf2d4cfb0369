"""holdout21: a fresh, blind generalisation split for the nbcritic analysis critic.

Written outside the repository (staged with NBCRITIC_CORPUS_STAGED) by an author who read only
the `Case` format and the corpus checker: neither the critic's rules, nor its code or tests, nor
any earlier split. The voice is an experimental psychologist / education researcher writing the
analysis notebook for a paper: long-format pandas data with participant/trial/wave columns,
groupby-agg and pivots, scipy.stats tests, statsmodels formulas (ols, mixedlm, anova_lm),
hand-rolled Cronbach's alpha, ICC, Cohen's d and eta squared, APA-style f-string reporting,
and some scikit-learn for predicting dropout, attrition and exam passes.

Domains: semantic priming and Stroop reaction-time experiments, insight-problem and
cleanliness-priming replications (including a multi-site "many labs" replication), eye-tracking
measures of dyslexic readers, Likert questionnaires and scale construction (wellbeing,
depression short forms), classroom interventions with pupils nested in classes and schools,
a longitudinal wellbeing panel with waves, teacher ratings and essay marking, test-item
analysis and mock exams, school attainment data and university onboarding surveys.

Every family has two flawed cells written in different idioms and domains, each with a sound
twin doing the same work correctly, plus five ordinary sound analyses in sound_general.py.
All data are simulated in each case's `setup` with a seeded numpy Generator.

First look (measured once, before any tuning on this split, at commit d2bf3ad, rules only, real
kernels): recall 0.70 (14/20), strict recall 0.65, false-positive rate 0.08 (2/25, both
blocked).
"""

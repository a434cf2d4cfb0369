"""Data loss, holdout9 idioms: fire-service incidents joined to the station register on a station
code built with astype(str), which never matches the register's zero-padded codes for stations
1-9 so the default inner merge quietly drops every downtown call, and shellfish toxin results
read with pd.to_numeric(errors='coerce'), which turns every '<LOD' result into NaN that the site
means and the exceedance rate then skip."""

from textwrap import dedent

from bench.critic_corpus import Case

_FIRE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9901)
stations = pd.DataFrame({
    "station_code": [f"{i:02d}" for i in range(1, 25)],
    "district": (["Central"] * 6 + ["Harbour"] * 3 + ["Northside"] * 5 + ["Eastgate"] * 5
                 + ["Hills"] * 5),
})
n = 5000
station = rng.choice(np.arange(1, 25), n, p=np.r_[np.full(9, 0.07), np.full(15, 0.37 / 15)])
urban = station <= 9
incidents = pd.DataFrame({
    "incident_no": np.arange(240_001, 240_001 + n),
    "station": station,
    "category": rng.choice(["medical", "fire", "rescue", "alarm"], n, p=[0.6, 0.1, 0.1, 0.2]),
    "response_min": np.where(urban, rng.gamma(6, 0.9, n), rng.gamma(6, 1.6, n)).round(1),
})
"""

_TOXIN = """\
import io

import numpy as np
import pandas as pd

rng = np.random.default_rng(9902)
sites = ["Loch Fyne", "Loch Ryan", "Sound of Mull", "Loch Etive", "Clew Bay"]
lines = ["site,sample_date,species,dsp_ug_kg"]
for site, level in zip(sites, [35, 20, 60, 15, 45], strict=True):
    for d in pd.date_range("2024-04-01", periods=30, freq="W-MON"):
        value = rng.lognormal(np.log(level), 1.1)
        result = "<20" if value < 20 else f"{value:.0f}"
        lines.append(f"{site},{d.date()},mussel,{result}")
raw = "\\n".join(lines)
"""

CASES: list[Case] = [
    Case(
        id="data_loss-h9-fire-station-code-inner-merge",
        family="data_loss",
        twin="data_loss-h9-fire-station-code-inner-merge-sound",
        split="holdout9",
        setup=_FIRE,
        note="astype(str) gives '7' where the register has '07', so the inner merge silently "
        "drops all calls of stations 1-9 (the whole Central and Harbour districts, ~60% of "
        "calls) before the response-time summary.",
        code=dedent("""\
            calls = incidents.assign(station_code=incidents["station"].astype(str))
            merged = calls.merge(stations, on="station_code")

            by_district = (merged.groupby("district")["response_min"]
                           .agg(calls="count", mean="mean", p90=lambda s: s.quantile(0.9))
                           .sort_values("mean"))
            print(by_district.round(1))
            share_8 = merged["response_min"].le(8).mean()
            print(f"city-wide median response: {merged['response_min'].median():.1f} min; "
                  f"within 8 minutes: {share_8:.1%}")
        """),
    ),
    Case(
        id="data_loss-h9-fire-station-code-inner-merge-sound",
        family=None,
        twin="data_loss-h9-fire-station-code-inner-merge",
        split="holdout9",
        setup=_FIRE,
        note="The station number is zero-padded to the register's format and the merge is "
        "checked (validate, indicator) with the unmatched count printed, so no call is lost.",
        code=dedent("""\
            calls = incidents.assign(station_code=incidents["station"].astype(str).str.zfill(2))
            merged = calls.merge(stations, on="station_code", how="left",
                                 validate="many_to_one", indicator=True)
            print(f"calls: {len(calls)}, unmatched station codes: "
                  f"{(merged['_merge'] == 'left_only').sum()}")

            by_district = (merged.groupby("district")["response_min"]
                           .agg(calls="count", mean="mean", p90=lambda s: s.quantile(0.9))
                           .sort_values("mean"))
            print(by_district.round(1))
            share_8 = merged["response_min"].le(8).mean()
            print(f"city-wide median response: {merged['response_min'].median():.1f} min; "
                  f"within 8 minutes: {share_8:.1%}")
        """),
    ),
    Case(
        id="data_loss-h9-shellfish-toxin-below-lod-coerced",
        family="data_loss",
        twin="data_loss-h9-shellfish-toxin-below-lod-coerced-sound",
        split="holdout9",
        setup=_TOXIN,
        note="Results reported as '<20' (below the limit of detection) become NaN under "
        "errors='coerce' and are silently skipped, so site means and the exceedance rate are "
        "computed on the contaminated samples only.",
        code=dedent("""\
            results = pd.read_csv(io.StringIO(raw), parse_dates=["sample_date"])
            results["dsp"] = pd.to_numeric(results["dsp_ug_kg"], errors="coerce")

            limit = 160  # regulatory action level, ug OA eq / kg
            site_table = (results.groupby("site")["dsp"]
                          .agg(samples="count", mean="mean", max="max",
                               over_limit=lambda s: (s > limit).mean())
                          .sort_values("mean", ascending=False))
            print(site_table.round(2))
            print(f"all sites: mean DSP {results['dsp'].mean():.1f} ug/kg, "
                  f"{(results['dsp'].dropna() > limit).mean():.1%} of samples over {limit}")
        """),
    ),
    Case(
        id="data_loss-h9-shellfish-toxin-below-lod-coerced-sound",
        family=None,
        twin="data_loss-h9-shellfish-toxin-below-lod-coerced",
        split="holdout9",
        setup=_TOXIN,
        note="Below-LOD results are kept as censored values (flagged, counted and set to half "
        "the LOD for the mean), so every sample counts in the means and exceedance rates.",
        code=dedent("""\
            results = pd.read_csv(io.StringIO(raw), parse_dates=["sample_date"])
            text = results["dsp_ug_kg"].astype(str)
            results["below_lod"] = text.str.startswith("<")
            lod = text.str.lstrip("<").astype(float)
            results["dsp"] = lod.where(~results["below_lod"], lod / 2)

            limit = 160  # regulatory action level, ug OA eq / kg
            site_table = (results.groupby("site")
                          .agg(samples=("dsp", "size"), below_lod=("below_lod", "sum"),
                               mean=("dsp", "mean"), max=("dsp", "max"),
                               over_limit=("dsp", lambda s: (s > limit).mean()))
                          .sort_values("mean", ascending=False))
            print(site_table.round(2))
            print(f"all sites: mean DSP {results['dsp'].mean():.1f} ug/kg (<LOD as LOD/2), "
                  f"{(results['dsp'] > limit).mean():.1%} of samples over {limit}")
        """),
    ),
]

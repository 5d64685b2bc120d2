"""The campaign-optimal policy of issue 26 item 3 against always-win and always-coins play:
long-run coins per round under the game's level rule, on the same seeded deals
(:mod:`gamelab.voltorb.campaign`: the chain over (level, streak toward level 8), policy
iteration whose round choices are the exact round search for coins + the chain's values).

    nice -n 10 python benchmarks/voltorb_campaign.py --deals 24 24 24 24 6 6 6 6 \\
        --iterations 1 --state-limit 200000 [--json out.json]

prints each policy's coins per round with a 95 % bootstrap interval over the deals, the
long-run share of rounds at each level, and the campaign policy's gain after each iteration.
"""

from __future__ import annotations

import argparse


def main() -> None:
    from gamelab.core.serialise import to_json
    from gamelab.voltorb.campaign import CampaignSettings, campaign_policy

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, nargs=8, default=[24, 24, 24, 24, 6, 6, 6, 6])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=1)
    ap.add_argument("--state-limit", type=int, default=200_000)
    ap.add_argument("--bootstrap", type=int, default=400)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    settings = CampaignSettings(
        tuple(args.deals), args.seed, "hgss", args.state_limit, args.iterations, args.bootstrap
    )
    res = campaign_policy(settings, progress=lambda line: print(line, flush=True))
    print(f"deals used per level: {res.deals_used} (past the state limit: {res.deals_dropped})")
    print("policy      coins/round   95% bootstrap   share of rounds at level 1..8")
    for p in res.policies:
        share = " ".join(f"{100 * p.level_share[lv]:4.1f}" for lv in range(1, 9))
        print(
            f"{p.name:9s} {p.coins_per_round:11.1f}   [{p.ci95[0]:.1f}, {p.ci95[1]:.1f}]   {share}"
        )
    d, lo, hi = res.gain_over_coins
    print(f"campaign - coins: {d:+.1f} coins per round [{lo:+.1f}, {hi:+.1f}] (paired bootstrap)")
    print(
        f"campaign gain by iteration: {[round(g, 2) for g in res.gains]}; searches past the "
        f"limit that kept the previous policy: {res.kept_previous}; {res.seconds:.0f} CPU-s"
    )
    if args.json:
        with open(args.json, "w") as fh:
            fh.write(to_json(res))


if __name__ == "__main__":
    main()

"""Eleventh held-out split: written outside the repository while holdout10's misses were being
fixed, by an author who had not read the critic's rules, and registered after its first look
was measured; in domains used by none of the earlier splits (mushroom toxicology, kidney
dialysis, court backlogs, crop insurance, 3D printing, vaccine cold chain, recycling plants,
coral reefs, crowdfunding, data-centre cooling, ballet, glaciology, orthodontics, food delivery,
rail freight, violin making, hearing aids, lighthouse logs, esports betting, rowing)."""

"""Second held-out split: fresh idioms from dev and holdout, written after the rules were tuned."""

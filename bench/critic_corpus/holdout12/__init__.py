"""Twelfth held-out split: written outside the repository after holdout11's first look, by an
author who read neither the critic's rules nor any earlier split (only the Case format and the
family list), and registered after its first look was measured; in unusual domains (tea
grading, toy safety, cave diving, opera attendance, pipe organs, beach litter, typography,
mushroom foraging, volcano tourism, lighthouses, perfume panels, bookbinding, escape rooms,
kite festivals, tattoo studios, organ transport, street pianos, meteorites, kilns, balloons)."""

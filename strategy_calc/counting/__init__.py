"""Card counting: count systems, effects of removal, indices, bet ramps, counted shoes of
both games and their sampling."""

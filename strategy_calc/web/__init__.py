"""``strategy-calc serve``: the local web page and its JSON API."""

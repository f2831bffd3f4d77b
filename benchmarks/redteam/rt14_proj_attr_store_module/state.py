scale = 1.0
widths = [2]
table = {"n": 2}

scale = 1.0
sizes = [2]

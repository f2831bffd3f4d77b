"""A CSV history writer: one row per epoch, values formatted with repr so that every digit shows."""
import csv
import io


class History:
    def __init__(self, fields):
        self.buf = io.StringIO()
        self.writer = csv.writer(self.buf)
        self.writer.writerow(fields)
        self.rows = 0

    def log(self, *values):
        self.writer.writerow([repr(v) for v in values])
        self.rows += 1

    def dump(self):
        return self.buf.getvalue()

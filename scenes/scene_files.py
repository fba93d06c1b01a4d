"""Writes generated scene files, or checks that they are up to date (the
generators' shared --check): make_city_district.py, make_old_town.py."""
import json
import os


def write_or_check(here: str, files: list, script: str, check: bool) -> int:
    """Writes each (name, data) of @p files into @p here (data: a str as is,
    else JSON with indent 1), or with @p check only compares; returns 1 when
    a file differs (check), else 0."""
    status = 0
    for name, data in files:
        path = os.path.join(here, name)
        text = data if isinstance(data, str) else json.dumps(data, indent=1) + "\n"
        if check:
            same = os.path.exists(path) and open(path).read() == text
            print(f"{path}: {'up to date' if same else 'differs: run scenes/' + script}")
            status = status if same else 1
        else:
            open(path, "w").write(text)
            print(f"wrote {path}")
    return status

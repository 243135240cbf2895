"""A tiny runner for the compat checks: each check is a function; the run prints one line per check and a
summary, and exits non-zero when any check failed, so the Node test that runs the script can show exactly
which client call broke and how."""
import sys
import time
import traceback


class CheckRun:
    def __init__(self, label):
        self.label = label
        self.failed = []
        self.passed = 0

    def check(self, name, fn):
        started = time.monotonic()
        try:
            fn()
        except Exception:  # every failure is reported, then the next check runs
            self.failed.append(name)
            print(f"FAIL {name}\n{traceback.format_exc()}", flush=True)
            return
        self.passed += 1
        print(f"ok   {name} ({(time.monotonic() - started) * 1000:.0f} ms)", flush=True)

    def finish(self):
        print(f"{self.label}: {self.passed} passed, {len(self.failed)} failed" + (f": {', '.join(self.failed)}" if self.failed else ""), flush=True)
        sys.exit(1 if self.failed else 0)


def wait_until(predicate, timeout=30.0, interval=0.05, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def package_docs(count):
    """Small documents shaped like the Debian corpus's: a name, a section, a size and a description."""
    sections = ["admin", "devel", "libs", "net", "utils"]
    return [
        {
            "package": f"pkg-{i:04d}",
            "section": sections[i % len(sections)],
            "installed_size": 100 + i * 7,
            "description": f"package number {i} for the {sections[i % len(sections)]} section" + (" with tools" if i % 4 == 0 else ""),
        }
        for i in range(count)
    ]

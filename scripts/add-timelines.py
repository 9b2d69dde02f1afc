#!/usr/bin/env python3
"""Puts measured warp timelines into a session file.

Usage: scripts/add-timelines.py SESSION.json TIMELINE.json...

Each TIMELINE.json is what `reductionlab-cli trace --measured` writes ({"timeline", "summary",
"barriers"}); its "timeline" goes into the session's "timelines" (docs/cli.md, "The timeline
JSON"), in the order given, replacing the ones there. A session holds at most 32. The app and
the CLI check every timeline when they read the session; this only copies them."""
import collections
import json
import sys

MAX_PER_SESSION = 32  # kTimelineMaxPerSession, engine/include/engine/session/timeline.h


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    session_path, files = argv[1], argv[2:]
    if len(files) > MAX_PER_SESSION:
        sys.exit(f"{len(files)} timelines: a session holds at most {MAX_PER_SESSION}")
    with open(session_path, encoding="utf-8") as f:
        session = json.load(f, object_pairs_hook=collections.OrderedDict)
    timelines = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, object_pairs_hook=collections.OrderedDict)
        if "timeline" not in doc:
            sys.exit(f"{path}: not written by trace --measured (no \"timeline\")")
        timelines.append(doc["timeline"])
    session.pop("timelines", None)
    # The session as it was (indented); each timeline on one compact line, since their marks
    # are thousands of small objects that indentation would triple in size.
    text = json.dumps(session, indent=2)
    lines = ",\n    ".join(json.dumps(t, separators=(",", ":")) for t in timelines)
    text = text[: text.rfind("}")].rstrip() + ',\n  "timelines": [\n    ' + lines + "\n  ]\n}\n"
    with open(session_path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{session_path}: {len(timelines)} timelines")


if __name__ == "__main__":
    main(sys.argv)

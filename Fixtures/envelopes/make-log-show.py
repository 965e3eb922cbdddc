#!/usr/bin/env python3
"""Writes log-show-twin.ndjson and log-show.json from ../flows/leak-pop.log (an NSLog capture with a leak):
the same records as `log show --style ndjson` prints them, one object a line, and as `log show --style
json` prints them, one pretty-printed array: `[{` on the first line, `  "key" : value,` members
(eventMessage before timestamp, as log prints them), nested values indented, `},{` between objects,
`}]` at the end, slashes escaped as `\\/`. Run it from this folder: python3 make-log-show.py
"""
import json
import re

ENVELOPE = re.compile(r"^(\S+ \S+) (\S+)\[(\d+):(\d+)\] (.*)$")
APP = "/private/var/containers/Bundle/Application/6F1B2A4C-8E3D-4B7A-9C21-0D5E7F3A1B64/Shop.app/Shop"
FOUNDATION = "/System/Library/Frameworks/Foundation.framework/Foundation"


def records(lines):
    for n, line in enumerate(lines):
        m = ENVELOPE.match(line)
        timestamp, _process, pid, tid, message = m.groups()
        offset = 115448 + 16 * (n % 7)
        # The key order `log show --style json` prints.
        yield {
            "traceID": 3618502788670228 + 4096 * n,
            "eventMessage": message,
            "eventType": "logEvent",
            "source": None,
            "formatString": "%{public}s",
            "activityIdentifier": 0,
            "subsystem": "",
            "category": "",
            "threadID": int(tid),
            "senderImageUUID": "A1D6C3E0-7F2B-3B19-9E44-51C0D8F2A6B7",
            "backtrace": {"frames": [{"imageOffset": offset, "imageUUID": "A1D6C3E0-7F2B-3B19-9E44-51C0D8F2A6B7"}]},
            "bootUUID": "",
            "processImagePath": APP,
            "timestamp": timestamp,
            "senderImagePath": FOUNDATION,
            "machTimestamp": 418769037153 + 1000003 * n,
            "messageType": "Default",
            "processImageUUID": "3C9E5A71-0B2D-3F48-A6E1-7D20C4B9F815",
            "processID": int(pid),
            "senderProgramCounter": offset,
            "parentActivityIdentifier": 0,
            "timezoneName": "",
        }


def slashes(text):
    return text.replace("/", "\\/")


def ndjson(objects):
    return "".join(slashes(json.dumps(o, separators=(",", ":"), ensure_ascii=False)) + "\n" for o in objects)


def log_show_json(objects):
    """`log show --style json`'s layout."""
    out = []
    for i, o in enumerate(objects):
        members = []
        for key, value in o.items():
            text = json.dumps(value, indent=2, separators=(",", " : "), ensure_ascii=False)
            text = text.replace("\n", "\n  ")
            members.append("  " + json.dumps(key) + " : " + slashes(text))
        out.append(("[{" if i == 0 else "},{") + "\n" + ",\n".join(members) + "\n")
    out.append("}]\n" if objects else "[\n\n]\n")
    return "".join(out)


if __name__ == "__main__":
    with open("../flows/leak-pop.log", encoding="utf-8") as f:
        objects = list(records(f.read().splitlines()))
    with open("log-show-twin.ndjson", "w", encoding="utf-8") as f:
        f.write(ndjson(objects))
    with open("log-show.json", "w", encoding="utf-8") as f:
        f.write(log_show_json(objects))

#!/usr/bin/env python3
"""Seeds for scripts/fuzz.sh --long: inputs past every bound the readers keep (json_bounded.h,
experiment/spec.h), which the checked-in corpus (a few KiB each) cannot reach by mutation. Written to
OUT/TARGET/; each is a few MiB at most.

Usage: fuzz/long_seeds.py OUT_DIR SESSION_SEED.json
"""
import json
import os
import sys

out, session_path = sys.argv[1], sys.argv[2]


def write(target, name, text):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "w") as f:
        f.write(text)


def wide_object(n):
    return "{" + ",".join('"k%d":0' % i for i in range(n)) + "}"


# Width: one key past the bound and one under it, in an unknown field and a known one.
spec = "spec_reader_fuzz"
write(spec, "long-wide-4097-keys.json", '{"variants":["interleaved"],"zz":' + wide_object(4097) + "}")
write(spec, "long-wide-4000-keys-timing.json", '{"timing":' + wide_object(4000) + "}")
write(spec, "long-duplicate-key.json", '{"sizes":[1024],"sizes":[2048]}')
# Items: an array at the bound and one past it.
write(spec, "long-items-1048577.json", '{"sizes":[' + ",".join(["1"] * 1048577) + "]}")
# Expansion: every variant, both workspaces, five block sizes, two types, many sizes.
write(spec, "long-expansion-200000-sizes.json", json.dumps({
    "variants": ["all"], "workspaces": ["global", "shared"],
    "block_sizes": [64, 128, 256, 512, 1024], "types": ["int32", "float32"],
    "sizes": list(range(1, 200001))}))
write(spec, "long-expansion-ranges.json", json.dumps({
    "variants": ["all"], "sizes": ["2^1..2^40"] * 20000}))
write(spec, "long-max-points.json", json.dumps({
    "variants": ["interleaved"], "sizes": list(range(1, 101)), "max_points": 99}))

# Sessions: the seed's points many times over (duplicates), a wide result, a spec that expands
# past its bound, a long string.
with open(session_path) as f:
    session = json.load(f)
sess = "session_reader_fuzz"
many = dict(session)
many["results"] = session["results"] * 200
write(sess, "long-duplicate-points.json", json.dumps(many))
wide = json.loads(json.dumps(session))
wide["results"][0].update({"x%d" % i: 0 for i in range(5000)})
write(sess, "long-wide-result.json", json.dumps(wide))
big_spec = json.loads(json.dumps(session))
big_spec["spec"]["sizes"] = list(range(1, 200001))
write(sess, "long-spec-200000-sizes.json", json.dumps(big_spec))
note = json.loads(json.dumps(session))
note["device"]["note"] = "n" * (1 << 17)
write(sess, "long-string-128k.json", json.dumps(note))

# ci/calibrate-memory on synthetic run directories: traffic made so that a
# known profile (read 12, write 30 GB/s, serial 0.6) gives the seeds' fsdax
# base, p5, p7 and tip exactly; --fit must find that profile again, and the
# table must show its predictions. Runs that cannot be read are usage errors.
source "$(dirname "$0")/lib.bash"
CAL=$SRC/ci/calibrate-memory
python3 - "$TMP" <<'PY'
import json, pathlib, sys
tmp = pathlib.Path(sys.argv[1])
pages = 524288
truth = {"ipc": 4, "ghz": 3.4, "read": 12.0, "write": 30.0, "serial": 0.6}
seed_ms = {"base": (244.28, 273.31), "p5": (217.19, 244.37), "p7": (150.83, 153.55),
           "tip": (96.79, 119.04)}

def ns(t):
    c = t["insns"] / (truth["ipc"] * truth["ghz"])
    m = t["dram_read"] / truth["read"] + t["dram_write"] / truth["write"]
    return max(c, m) + truth["serial"] * min(c, m)

def traffic(read, ms):
    """Instructions that make the window take MS (per 100 GB) with READ bytes read."""
    want = ms * 1e6 / 26214400 * pages
    lo, hi = 0.0, 1e12
    for _ in range(200):
        mid = (lo + hi) / 2
        t = {"insns": mid, "dram_read": read, "dram_write": 64 * pages}
        lo, hi = (mid, hi) if ns(t) < want else (lo, mid)
    return {"rebinds": 2, "windows": 2, "insns": int(2 * lo), "dram_read": 2 * read,
            "dram_write": 2 * 64 * pages, "nt_stores": 0}

def run(name, row):
    kernels = {}
    for role, kname, key in (("base", "base", "base"), ("candidate", "v10", row)):
        read = 0 if key in ("p7", "tip") else 64 * pages
        t = {s: traffic(read, seed_ms[key][i]) for i, s in enumerate(("fsdax-dev", "devdax-dev"))}
        kernels[kname] = {"role": role, "memory_traffic": t,
                          "setups": {s: {"memmap_init_mns": {"pages": pages}} for s in t}}
    d = tmp / name
    d.mkdir()
    (d / "results.json").write_text(json.dumps({"clock": "memory", "kernels": kernels}))

for row in ("p5", "p7", "tip"):
    run(row, row)
(tmp / "nothing").mkdir()
(tmp / "nothing" / "results.json").write_text(json.dumps({"kernels": {"base": {"role": "base"}}}))
PY

expect_exit 0 "$CAL" --fit p5="$TMP/p5" p7="$TMP/p7" tip="$TMP/tip"
expect_grep "^read-gbps: 12$" "$TMP/out"
expect_grep "^write-gbps: 30$" "$TMP/out"
expect_grep "^serial: 0.600$" "$TMP/out"
# Every row is met: the synthetic devdax rows were made from it too.
expect_grep "^p7 .*fsdax-dev .*-38.3% *-38.3% *[+-]0.0p" "$TMP/out"
expect_grep "^largest distance from the seeds: 0.0 points (RMS 0.0)" "$TMP/out"
# The bundled profile's own predictions, without fitting: a table, and the
# distance is not zero (it was not made from these runs).
expect_exit 0 "$CAL" p5="$TMP/p5" tip="$TMP/tip"
expect_grep "^tip .*devdax-dev" "$TMP/out"
if grep -q "^largest distance from the seeds: 0.0 points" "$TMP/out"; then
  fail "the bundled profile cannot fit synthetic runs exactly"
fi
# Inputs it cannot use: usage errors naming why.
expect_exit 2 "$CAL" p5="$TMP/nothing"
expect_grep "needs a base and a candidate kernel" "$TMP/err"
expect_exit 2 "$CAL" p5="$TMP/missing"
expect_exit 2 "$CAL" p9="$TMP/p5"
expect_exit 2 "$CAL" --fit p7="$TMP/p7"
expect_grep "needs the rows p5, tip" "$TMP/err"
expect_exit 2 "$CAL" --fit p5="$TMP/p5" tip="$TMP/tip"
expect_grep "needs the rows p7" "$TMP/err"
# Figures taken on trust (issue 50, class 8): a profile's NaN, inf, negative
# or repeated figure, and a results.json whose numbers are strings, NaN,
# negative or of the wrong type, are usage errors naming the file, never a
# traceback and never a table.
bundled=$SRC/kernel-configs/machines/icelake-sp.machine
for bad in "read-gbps: nan" "read-gbps: inf" "read-gbps: -11.5" "write-gbps: 1e3" \
           "serial: 1.5" "ipc: 0x4"; do
  key=${bad%%:*}
  grep -v "^$key:" "$bundled" >"$TMP/bad.machine"
  echo "$bad" >>"$TMP/bad.machine"
  expect_exit 2 "$CAL" --profile "$TMP/bad.machine" p5="$TMP/p5"
  expect_grep "bad.machine: $key: " "$TMP/err"
  ! grep -q Traceback "$TMP/err" || fail "a traceback for '$bad'"
done
cp "$bundled" "$TMP/twice.machine"
echo "read-gbps: 99" >>"$TMP/twice.machine"
expect_exit 2 "$CAL" --profile "$TMP/twice.machine" p5="$TMP/p5"
expect_grep "read-gbps: given twice" "$TMP/err"
python3 - "$TMP" <<'PY'
import json, pathlib, sys
tmp = pathlib.Path(sys.argv[1])
good = json.loads((tmp / "p5" / "results.json").read_text())
def variant(name, edit):
    d = json.loads(json.dumps(good))
    edit(d)
    (tmp / name).mkdir()
    (tmp / name / "results.json").write_text(json.dumps(d))
def traffic(d):
    return d["kernels"]["v10"]["memory_traffic"]["fsdax-dev"]
variant("string", lambda d: traffic(d).update(insns="12"))
variant("negative", lambda d: traffic(d).update(dram_read=-64))
variant("nan", lambda d: traffic(d).update(dram_write=float("nan")))
variant("inf", lambda d: traffic(d).update(rebinds=float("inf")))
variant("list", lambda d: d["kernels"]["v10"].update(memory_traffic=[1, 2]))
variant("notobject", lambda d: d["kernels"].update(v10=7))
(tmp / "toplist").mkdir()
(tmp / "toplist" / "results.json").write_text("[1, 2]")
PY
for bad in string negative nan inf list notobject toplist; do
  expect_exit 2 "$CAL" p5="$TMP/$bad"
  expect_grep "$TMP/$bad/results.json" "$TMP/err"
  ! grep -q Traceback "$TMP/err" || fail "a traceback for $bad"
done
# The AMD profile gives its own predictions from the same runs.
expect_exit 0 "$CAL" --profile epyc-zen p5="$TMP/p5" tip="$TMP/tip"
expect_grep "^profile epyc-zen: 3.7 GHz" "$TMP/out"
echo "ok"

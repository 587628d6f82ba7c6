# The reports a gate (and a boot) leaves besides its text and JUnit: the
# KCIDB file, valid against kseries' subset of the KCIDB v5 schema
# (tests/schemas/) with consistent ids and KCIDB's patchset hash; and the
# self-contained HTML page, well-formed with a hostile patch subject, its
# links resolving to files of the run, rendered by headless Chromium into a
# screenshot whose top is the verdict's colour. Stand-in make and QEMU.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
# The validator: the Debian python3-jsonschema, or any python3 that has it.
PY=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || fail "no python3 with jsonschema (ci/install-deps installs python3-jsonschema)"
command -v xmllint >/dev/null || fail "no xmllint (ci/install-deps installs libxml2-utils)"
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
cat >"$repo/scripts/checkpatch.pl" <<'CP'
my $f = $ARGV[-1]; open(my $h, '<', $f) or die; my $n = 0;
while (<$h>) { $n++; print "$f:$n: WARNING:TODO: a TODO was added\n" if /^\+.*TODO/; }
exit 0;
CP
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
hostile='demo: <script>alert("x")</script> & '"'"'quoted'"'"' <b>bold'
SERIES_SUBJECT=$hostile make_series good speed fast b.c "int b; /* TODO */"
SERIES_SUBJECT="demo: slow" make_series slow speed slow
SERIES_SUBJECT="demo: breaks" make_series breaks b.c "BROKEN" b.c "int b;" speed fast
echo "fail: toy demo: slower" >"$TMP/series/demo/slow/expect"
echo "fail: per-patch toy: patch 1/3" >"$TMP/series/demo/breaks/expect"
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: a\nfeatures: none\n' >"$TMP/configs/targets/nopmem.target"
printf 'per-patch: toy\ncell: toy demo setups=fsdax-dev,devdax-mem\ncell: nopmem demo\n' \
  >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base")
schema=$SRC/tests/schemas/kcidb.schema.json

check_kcidb() {  # check_kcidb FILE: the schema and the ids, or fail
  "$PY" "$SRC/tests/tools/check_kcidb.py" "$schema" "$1" >"$TMP/kcidb-check" 2>&1 ||
    { cat "$TMP/kcidb-check"; fail "$1 is not valid KCIDB"; }
}
check_html() {  # check_html FILE: well-formed, every link resolves, nothing external
  local page=$1
  xmllint --noout "$page" 2>"$TMP/xmllint" || { cat "$TMP/xmllint"; fail "$page is not well-formed"; }
  "$PY" - "$page" <<'PY' || fail "$page: see above"
import html.parser, os, sys, urllib.parse
page = sys.argv[1]
void = {"meta", "br", "circle", "line", "hr", "img", "input", "link"}
class Check(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.problems, self.links = [], [], 0
    def handle_starttag(self, tag, attrs):
        if tag not in void:
            self.stack.append(tag)
        for name, value in attrs:
            if name in ("src",) or (name == "href" and value.startswith(("http:", "https:", "//"))):
                self.problems.append(f"external resource: {name}={value}")
            if name == "href" and not value.startswith("#"):
                path = urllib.parse.unquote(value.removeprefix("file://"))
                path = path if path.startswith("/") else os.path.join(os.path.dirname(page), path)
                self.links += 1
                if not os.path.exists(path):
                    self.problems.append(f"broken link: {value}")
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in void:
            self.stack.pop()
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()
c = Check()
c.feed(open(page, encoding="utf-8").read())
if c.stack:
    c.problems.append(f"unclosed: {c.stack}")
for p in c.problems:
    print(p)
print(f"{page}: {c.links} links checked")
sys.exit(1 if c.problems or c.links == 0 else 0)
PY
  grep -q '<script' "$page" && fail "$page: a raw <script> (the hostile subject was not escaped)"
  grep -q '<link\|@import\|url(' "$page" && fail "$page: an external resource"
  return 0
}

# A good revision with a hostile subject, a known-bad one caught by its
# timing cell, one whose first patch breaks the build: the gate passes.
mkdir -p "$TMP/pages"
expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix toy --series "$TMP/series/demo/good" \
  --series "$TMP/series/demo/slow" --series "$TMP/series/demo/breaks" \
  --kcidb "$TMP/k.json" --html "$TMP/pages/gate.html"
run=$(sed -n 's/^run directory //p' "$TMP/out")
for f in report.html kcidb.json; do [ -s "$run/$f" ] || fail "no $f in $run"; done
cmp -s "$run/kcidb.json" "$TMP/k.json" || fail "--kcidb differs from the run's kcidb.json"

# KCIDB: valid, one checkout per revision with KCIDB's patchset hash over
# the patch files in the series file's order, the broken patch's build
# failed, the timing figures numbers with a unit, the cells as tests.
check_kcidb "$TMP/k.json"
want_hash=$(cd "$TMP/series/demo/good" && sha256sum $(cat series) | cut -c-64 | sha256sum | cut -c-64)
"$PY" - "$TMP/k.json" "$want_hash" <<'PY' || fail "KCIDB content, see above"
import json, re, sys
k, want = json.load(open(sys.argv[1])), sys.argv[2]
problems = []
def expect(cond, what):
    if not cond:
        problems.append(what)
checkouts = {c["id"].split(":", 2)[2]: c for c in k["checkouts"]}
expect(sorted(checkouts) == ["breaks", "good", "slow"], f"checkouts {sorted(checkouts)}")
good = checkouts["good"]
expect(good["patchset_hash"] == want, f"patchset_hash {good['patchset_hash']} != {want}")
expect([f["name"] for f in good["patchset_files"]][0].startswith("0001-"), "patch file names")
expect(good["valid"] is True and len(good["git_commit_hash"]) == 40, "good checkout")
expect(checkouts["slow"]["misc"]["verdict"] == "expected", "slow: expected verdict")
builds = {b["id"].split(":", 2)[2]: b for b in k["builds"]}
expect(builds.get("breaks:per-patch:toy:1", {}).get("status") == "FAIL", "breaks patch 1 build")
expect(builds.get("breaks:per-patch:toy:2", {}).get("status") == "PASS", "breaks patch 2 build")
expect(builds.get("good:toy", {}).get("config_name") == "toy", "good's toy build")
tests = k["tests"]
paths = {(t["build_id"].split(":", 2)[2], t["path"]): t for t in tests}
cell = paths.get(("good:toy", "kseries.demo"))
expect(cell and cell["status"] == "PASS", "good's toy demo cell")
skip = [t for t in tests if t["path"] == "kseries.demo" and "nopmem" in t["id"]]
expect(not skip, "a skipped cell has no build, so no test")
figures = [t for t in tests if re.fullmatch(r"kseries\.demo\.(fsdax-dev|devdax-mem)\.memmap_init_v?ns", t["path"])]
expect(len(figures) == 6, f"{len(figures)} timing figures, not 6 (3 revisions x 2 setups)")
for t in figures:
    expect(t["number"]["unit"] in ("ns", "vns") and t["number"]["value"] > 0, f"number of {t['id']}")
    slow = ":slow:" in t["id"]
    expect(t["status"] == ("FAIL" if slow else "PASS"), f"{t['id']}: {t['status']}")
expect(any(t["path"] == "kseries.demo.boot" for t in tests), "boot tests")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
# The check can fail: a status KCIDB does not know, a test without origin.
"$PY" - "$TMP/k.json" "$TMP/broken.json" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))
k["tests"][0]["status"] = "PASSED"
del k["tests"][1]["origin"]
k["builds"][0]["checkout_id"] = "kseries:nowhere"
json.dump(k, open(sys.argv[2], "w"))
PY
if "$PY" "$SRC/tests/tools/check_kcidb.py" "$schema" "$TMP/broken.json" >"$TMP/broken.out"; then
  fail "a broken KCIDB file passed the check"
fi
expect_grep "'PASSED' is not one of" "$TMP/broken.out"
expect_grep "'origin' is a required property" "$TMP/broken.out"
expect_grep "no checkout kseries:nowhere" "$TMP/broken.out"

# HTML: verdict first, the hostile subject escaped, well-formed, links that
# resolve from the run directory and from elsewhere, plots, the LKP table.
for page in "$run/report.html" "$TMP/pages/gate.html"; do
  check_html "$page"
done
page=$run/report.html
expect_grep '<h1>PASS: kseries gate</h1>' "$page"
expect_grep '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &lt;b&gt;bold' "$page"
expect_grep 'expected failure holds: toy demo: slower' "$page"
expect_grep "patch 1/3 &#39;demo: breaks b.c&#39; does not build" "$page"
expect_grep '%stddev     %change         %stddev' "$page"
[ "$(grep -o '<svg ' "$page" | wc -l)" -ge 4 ] || fail "fewer than 4 plots in $page"
expect_grep 'slower</text>' "$page"

# Headless Chromium renders the page as a reviewer would see it: a PNG, not
# blank, the verdict's green across its top.
if command -v chromium >/dev/null; then
  timeout 180 nice -n 19 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$TMP/chromium" --window-size=1280,2200 --screenshot="$TMP/shot.png" \
    "file://$page" >"$TMP/chromium.log" 2>&1 || { cat "$TMP/chromium.log"; fail "chromium failed"; }
  "$PY" "$SRC/tests/tools/check_png.py" "$TMP/shot.png" 26,127,55 || fail "the screenshot"
  [ -n "${KSERIES_KEEP_SCREENSHOT:-}" ] && cp "$TMP/shot.png" "$KSERIES_KEEP_SCREENSHOT"
else
  echo "note: chromium is not installed: the page was checked, not rendered"
fi

# kseries report draws both again from the run directory, writing nothing there.
before=$(find "$run" -type f -exec sha256sum {} + | sort)
expect_exit 0 "$KSERIES" report --run "$run" --html "$TMP/pages/again.html" --kcidb "$TMP/again.json"
cmp -s "$run/kcidb.json" "$TMP/again.json" || fail "kseries report's KCIDB differs from the gate's"
check_html "$TMP/pages/again.html"
[ "$before" = "$(find "$run" -type f -exec sha256sum {} + | sort)" ] || fail "kseries report wrote into $run"
expect_exit 2 "$KSERIES" report --run "$run"
expect_grep "give --run DIR and --html FILE and/or --kcidb FILE" "$TMP/err"
expect_exit 2 "$KSERIES" report --run "$TMP" --html -
expect_grep "neither gate.json nor results.json" "$TMP/err"

# A revision whose guest dies: the page's verdict is FAIL, the failure text shown.
FAKE_QEMU_MODE=die expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix toy \
  --series "$TMP/series/demo/good"
run=$(sed -n 's/^run directory //p' "$TMP/out")
check_html "$run/report.html"
check_kcidb "$run/kcidb.json"
expect_grep '<h1>FAIL: kseries gate</h1>' "$run/report.html"
expect_grep 'exited with rc=3' "$run/report.html"

# kseries boot writes both too, from its results.json.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy \
  --series "$TMP/series/demo/good" --compare-base --kcidb - --html "$TMP/pages/boot.html"
"$PY" -c 'import json,sys; d=sys.stdin.read(); json.loads(d[d.index("{\n  \"builds\""):])' \
  <"$TMP/out" || fail "--kcidb - did not print the KCIDB JSON"
run=$(sed -n 's/^run directory //p' "$TMP/out" | tail -1)
check_kcidb "$run/kcidb.json"
check_html "$TMP/pages/boot.html"
expect_grep '<h1>PASS: kseries boot</h1>' "$TMP/pages/boot.html"
[ "$(grep -o '<svg ' "$TMP/pages/boot.html" | wc -l)" -ge 2 ] || fail "no plots in the boot page"
echo "PASS"

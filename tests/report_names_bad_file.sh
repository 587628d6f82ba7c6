# `kseries report --run` on a gate run one of whose cells' results.json
# holds a value of the wrong type (a merged run reads the shards' files,
# copied from CI: anyone may have edited them) said "internal error:
# [json.exception.type_error.306] cannot use value() with string" and no
# file (issue 50). Now the file is named, exit 2, for the HTML and the KCIDB
# alike; the untouched run still renders.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
source "$(dirname "$0")/gate_toy.bash"
expect_exit 0 "$KSERIES" gate --workdir "$TMP/wd" "${tree[@]}" --matrix small \
  --series "$TMP/series/demo/good"
run=$(sed -n 's/^run directory //p' "$TMP/out")
cell=$(jq -r '.cells[] | select(.cell == "other demo") | .properties.run_dir' "$run/gate.json")
[ -f "$cell/results.json" ] || fail "no results.json for the cell other demo"
expect_exit 0 "$KSERIES" report --run "$run" --html "$TMP/ok.html"
cp "$cell/results.json" "$TMP/orig.json"
for change in '.boots = "x"' '.kernels = [1]' '.kernels = "k"'; do
  jq "$change" "$TMP/orig.json" >"$cell/results.json"
  for out in --html --kcidb; do
    expect_exit 2 "$KSERIES" report --run "$run" "$out" "$TMP/bad.out"
    expect_grep "$cell/results.json (cell good: other demo): a value of the wrong type" "$TMP/err"
    grep -q "internal error" "$TMP/err" && fail "$change: an internal error: $(cat "$TMP/err")"
  done
done
echo "ok: a JSON value of the wrong type names its file"

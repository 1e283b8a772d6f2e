#!/usr/bin/env bash
# Runs check.py on every shipped workload (workloads/plans.json) and writes each measured
# file to DIR (default ./measured): how the fixtures under tests/fixtures/check/ were made
# on a real GPU. The last workload is one no GPU holds: its refusal is kept as refused.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-measured}
mkdir -p "$dir"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,power.limit,driver_version --format=csv > "$dir/nvidia-smi.csv" 2>&1 || true
python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' > "$dir/torch.txt" 2>&1
run() {
  local name=$1; shift
  echo "== $name $*" >&2
  local t0=$SECONDS
  timeout 240 python3 "$here/check.py" "$here/workloads/$name.json" -o "$dir/$name.measured.json" "$@" \
    2> "$dir/$name.log"
  echo "exit $? in $((SECONDS - t0)) s" >> "$dir/$name.log"
  tail -2 "$dir/$name.log" >&2
}
run llama3-8b-s4096 --layers 4
run lesson-64-card0
run mixtral-ep8-card0 --layers 4
run llama3-70b-cp2-card0
run llama3-8b-s8192 --layers 2
run llama3-8b-s4096-full --layers 4 --eager-only
python3 "$here/check.py" "$here/workloads/too-big.json" -o "$dir/too-big.json" > /dev/null 2> "$dir/refused.txt"
echo "too-big exit $?" >> "$dir/refused.txt"
cat "$dir/refused.txt" >&2

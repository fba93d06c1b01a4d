#!/usr/bin/env bash
# The GPU checks of a session lent a GPU, in one call, most important first,
# each under a time cap that the call's deadline can shorten. Run from the
# tree's root on the GPU machine after ../shared/gpu/pack.sh BUILD_DIR here
# (configure BUILD_DIR with -DCCROWD_GDAL=OFF: GDAL's libraries take the pack
# to 171 MB, over the 64 MiB a device call carries; without them it is 22 MB):
#
#   bash bench/gpu_suite.sh [SECONDS [SECTION...]]
#
# SECONDS: the call's budget (default 420). SECTIONs, in the order given
# (default: tests eikonal step models scenes python all-tests validate):
#   tests      every per-backend test's cuda instance, the FIM's, EGL's (tests_cuda.log)
#   eikonal    bench eikonal, 256/1024/4096, CPU 1 and all threads, FMM, fim-cuda (eikonal.csv), and with
#              --profile-cuda one more solve per case whose kernel times its phases' parts ('profile,' lines)
#   eikonal8   the same with the 8-neighbour stencil, --stencil 8 (eikonal8.csv)
#   step       bench step, synthetic 100k..10M agents on CUDA, 100k and 1M on the CPU (step.csv); on CUDA with
#              --profile-cuda, one more step per configuration whose solve kernel times its parts ('profile,'
#              lines: the potential stage's kernel against the stage, per front walked of a crowd's costs)
#   models     bench step with each operational model (uic, social_force, orca, zones), 100k and 1M agents,
#              CUDA, then 100k on the CPU (models.csv): issue 14's 5 ms at 1M, bytes per agent per model
#   scenes     bench step on the default and eight-group scenes, both backends, warm start both (scene_step.csv)
#   python     pytest of the Python API on CUDA and the CPU (python.log); needs the CUDA build's
#              extension for the machine's Python in .pycuda/ccrowd (with python/ccrowd's .py files;
#              libsqlite3 and libgomp in .pycuda/lib) and, for the study, dask wheels in .whl/
#   all-tests  the whole test binary (tests.log): CLI tests now find a GPU for --backend auto
#   validate   ccrowd validate --backend cuda (validate.log, validate_report.md)
#   profile    Nsight Compute on the FIM solve kernel, obstacles 1024^2, stall reasons per SASS location
#              (profile.txt), and the kernel's SASS with its stall samples per instruction (profile_sass.txt)
#   tune       bench eikonal, obstacles, 1024^2 and 2048^2, for value-ordering bands 0/4/16/64 tiles and 2/8 sweeps
#              (tune.csv): the FIM's phases against its work on this GPU
#   step-sweeps bench step on CUDA, 1M agents / 1024^2 / 4 groups and the default scene, with sweep
#              budgets 8/6/5/4, alternating twice (step_sweeps.csv): on an H200, 6 took 10% off the 1M-agent
#              step's potential against 8 (2026-11-30, step-band), now the GPU's default; 5 and 4 not yet
#              timed: with the front walk the CPU counts 12% / 24% fewer critical fronts than 6 in this
#              step, at 48.0 / 50.3 phases against 48.0 (bench/results/fim_front_walk_2026-11-30_cpu2.md);
#              these runs take the GPU's default front budget (150) too, which caps most tiles first
#   fronts     the GPU's front budget (150 fronts per tile activation, new on 2026-12-02, chosen by the CPU's
#              count: 38% fewer critical fronts in a 1M-agent step at 51.5 against 48 phases) against none
#              (--front-budget 0), alternating twice: bench step at 1M and 100k agents and on the default and
#              eight-group scenes (step_fronts.csv), bench eikonal at 1024^2, every case (eikonal_fronts.csv)
#   step-band  bench step on CUDA, 1M agents / 1024^2 / 4 groups, bands 8/16/32/64 tiles (8 sweeps) and sweep
#              budgets 6/12 (band 16), alternating twice (step_band.csv): issue 11's step against the defaults
#   band       bench eikonal, all cases, 1024^2 and 4096^2, CUDA's default band (16 tiles) against the CPU's (4),
#              alternating twice (band.csv): the GPU's default, chosen by the CPU's critical sweeps; its time
#              against the phases and critical_sweeps columns (the same on both backends for one band)
#   features   the scenes of the stages no per-backend test runs on CUDA (route choice, events, incidents,
#              active region, search in smoke, social units): 200 steps with snapshots of every field on CUDA
#              and on the CPU, exit status and head counts side by side (features.log)
#   'FILTER'   anything else: a gtest filter for the test binary (filtered.log)
# The call ends with bench/gpu_targets.py's verdicts on issues 10, 11 and 14 from those logs.
# Logs go to $OUT (else ./gpu-logs); at most 8 files come back from a device call (the default
# sections write 8, 9 with python's log: then run validate in a call of its own).
set -uo pipefail
budget=${1:-420}
shift || true
sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(tests eikonal step models scenes python all-tests validate)
start=$(date +%s)
out=${OUT:-$PWD/gpu-logs}; mkdir -p "$out"
export OUT=$out OMP_WAIT_POLICY=passive
# NVIDIA's EGL for headless rendering, where the driver's folder has it
egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$egl

# seconds left for a section: its cap or what the deadline leaves
left() { local l=$((budget - ($(date +%s) - start) - 5)); [ "$1" -lt "$l" ] && l=$1; [ "$l" -lt 1 ] && l=1; echo "$l"; }
section() { echo "=== $1 ($(date +%T), $(($(date +%s) - start)) s in)"; }

bash .gpu/run.sh info
build=$(cat .gpu/build_path)
# run.sh puts the binaries at their build path and the tree at its source path
bash .gpu/run.sh true >/dev/null
X=$build/ccrowd; T=$build/tests/ccrowd_tests
export LD_LIBRARY_PATH=$PWD/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cd "$(cat .gpu/src_path)"

for s in "${sections[@]}"; do
  section "$s"
  case $s in
    tests)
      timeout "$(left 150)" "$T" --gtest_brief=1 --gtest_filter='*cuda*:*Cuda*:*CUDA*:*Egl*:Backends.*' 2>&1 |
        tee "$out/tests_cuda.log" | tail -40 ;;
    eikonal)
      timeout "$(left 100)" "$X" bench eikonal --sizes 256,1024,4096 --case all --backend cuda --no-skfmm --repeat 5 \
        --max-seconds 2 --profile-cuda --format csv 2>&1 | tee "$out/eikonal.csv" ;;
    eikonal8)
      timeout "$(left 100)" "$X" bench eikonal --sizes 256,1024,4096 --case all --backend cuda --no-skfmm --repeat 5 \
        --max-seconds 2 --stencil 8 --format csv 2>&1 | tee "$out/eikonal8.csv" ;;
    step)
      timeout "$(left 90)" "$X" bench step --backend cuda --agents 100000,1000000,4000000,10000000 \
        --cells 512,1024,2048,4096 --groups 4 --steps 10 --warmup 3 --profile-cuda --format csv 2>&1 | tee "$out/step.csv"
      timeout "$(left 60)" "$X" bench step --backend cpu --agents 100000,1000000 --cells 512,1024 --groups 4 --steps 5 \
        --warmup 2 --format csv 2>&1 | tail -n +2 | tee -a "$out/step.csv" ;;
    models)
      timeout "$(left 90)" "$X" bench step --backend cuda --agents 100000,1000000 --cells 512,1024 --groups 4 \
        --local uic,social_force,orca,zones --steps 10 --warmup 3 --format csv 2>&1 | tee "$out/models.csv"
      timeout "$(left 60)" "$X" bench step --backend cpu --agents 100000 --cells 512 --groups 4 \
        --local uic,social_force,orca,zones --steps 5 --warmup 2 --format csv 2>&1 | grep -v '^agents,' | tee -a "$out/models.csv" ;;
    scenes)
      for b in cuda cpu; do
        timeout "$(left 40)" "$X" bench step --backend $b --scene scenes/default.json --scene scenes/eight_groups.json \
          --warm-start both --steps 20 --warmup 5 --format csv 2>&1 | tee -a "$out/scene_step.csv"
      done ;;
    python)
      if [ -d .pycuda/ccrowd ]; then
        [ -d .whl ] && python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
        # the CLI with the packed libraries; Python with the machine's own libstdc++
        # (torch needs a newer libstdc++ than the build's)
        printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$LD_LIBRARY_PATH" "$X" > /tmp/ccrowd-cli && chmod +x /tmp/ccrowd-cli
        LD_LIBRARY_PATH=$PWD/.pycuda/lib PYTHONPATH=$PWD/.pycuda:/tmp/site CCROWD_CLI=/tmp/ccrowd-cli timeout "$(left 90)" \
          python3 -m pytest -q -p no:cacheprovider -rs tests/python/test_cuda.py tests/python/test_api.py 2>&1 |
          tee "$out/python.log" | tail -25
      else
        echo "no .pycuda/ccrowd: Python checks not run"
      fi ;;
    all-tests)
      timeout "$(left 200)" "$T" --gtest_brief=1 2>&1 | tee "$out/tests.log" | tail -30 ;;
    validate)
      timeout "$(left 600)" "$X" validate --backend cuda --threads 0 --out /tmp/validation --force 2>&1 |
        tee "$out/validate.log" | tail -25
      cp /tmp/validation/report.md "$out/validate_report.md" 2>/dev/null ;;
    profile)
      # the clocks as found (--clock-control none: never lock them); the stall reasons per SASS
      # location (SourceCounters) and the kernel's SASS beside them (profile_sass.txt)
      timeout "$(left 120)" ncu --clock-control none --kernel-name regex:solveKernel --launch-count 1 \
        --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
        --section SchedulerStats --section SourceCounters "$X" bench eikonal --sizes 1024 --case obstacles \
        --backend cuda --no-skfmm --repeat 1 --warmup 0 --max-seconds 1 2>&1 | tee "$out/profile.txt" | tail -80
      timeout "$(left 90)" ncu --clock-control none --kernel-name regex:solveKernel --launch-count 1 \
        --section SourceCounters --page source --print-source sass "$X" bench eikonal --sizes 1024 \
        --case obstacles --backend cuda --no-skfmm --repeat 1 --warmup 0 --max-seconds 1 > "$out/profile_sass.txt" 2>&1
      wc -l "$out/profile_sass.txt" ;;
    tune)
      for band in 0 4 16 64; do
        for sw in 2 8; do
          timeout "$(left 60)" "$X" bench eikonal --sizes 1024,2048 --case obstacles --backend cuda --no-skfmm \
            --repeat 3 --warmup 1 --max-seconds 1 --band-tiles $band --sweeps $sw --format csv 2>&1 |
            sed "s/^/band=$band,sweeps=$sw,/" | tee -a "$out/tune.csv"
        done
      done ;;
    step-sweeps)
      for rep in 1 2; do
        for sw in 8 6 5 4; do
          timeout "$(left 40)" "$X" bench step --backend cuda --agents 1000000 --cells 1024 --groups 4 --steps 10 \
            --warmup 3 --sweeps $sw --format csv 2>&1 | sed "s/^/rep=$rep,sweeps=$sw,/" | tee -a "$out/step_sweeps.csv"
          timeout "$(left 40)" "$X" bench step --backend cuda --scene scenes/default.json --steps 20 --warmup 5 \
            --sweeps $sw --format csv 2>&1 | sed "s/^/rep=$rep,sweeps=$sw,/" | tee -a "$out/step_sweeps.csv"
        done
      done ;;
    fronts)
      for rep in 1 2; do
        for fb in 0 auto; do
          timeout "$(left 40)" "$X" bench step --backend cuda --agents 100000,1000000 --cells 512,1024 --groups 4 \
            --steps 10 --warmup 3 --front-budget $fb --format csv 2>&1 | grep -v '^bench' |
            sed "s/^/rep=$rep,fronts=$fb,/" | tee -a "$out/step_fronts.csv"
          timeout "$(left 40)" "$X" bench step --backend cuda --scene scenes/default.json --scene scenes/eight_groups.json \
            --steps 20 --warmup 5 --front-budget $fb --format csv 2>&1 | grep -v '^bench' |
            sed "s/^/rep=$rep,fronts=$fb,/" | tee -a "$out/step_fronts.csv"
          timeout "$(left 40)" "$X" bench eikonal --sizes 1024 --case all --backend cuda --no-skfmm --repeat 5 \
            --max-seconds 1 --front-budget $fb --format csv 2>&1 | sed "s/^/rep=$rep,fronts=$fb,/" |
            tee -a "$out/eikonal_fronts.csv"
        done
      done ;;
    step-band)
      # whole 1M-agent steps on CUDA for value-ordering bands 8/16/32/64 and sweep budgets 6/8/12 at
      # band 16, alternating twice (step_band.csv): the GPU's defaults against the step's time
      for rep in 1 2; do
        for bs in 8,8 16,8 32,8 64,8 16,6 16,12; do
          timeout "$(left 30)" "$X" bench step --backend cuda --agents 1000000 --cells 1024 --groups 4 --steps 10 \
            --warmup 3 --band-tiles ${bs%,*} --sweeps ${bs#*,} --format csv 2>&1 | grep -v '^bench' |
            sed "s/^/rep=$rep,band=${bs%,*},sweeps=${bs#*,},/" | tee -a "$out/step_band.csv"
        done
      done ;;
    band)
      for rep in 1 2; do
        for band in 16 4; do
          # (each run also times FMM and the CPU FIM at 4096^2, some 40-60 s in all)
          timeout "$(left 120)" "$X" bench eikonal --sizes 1024,4096 --case all --backend cuda --no-skfmm \
            --repeat 3 --warmup 1 --max-seconds 1 --band-tiles $band --format csv 2>&1 |
            sed "s/^/rep=$rep,band=$band,/" | tee -a "$out/band.csv"
        done
      done ;;
    features)
      # a room of social units (seed 000's small groups) from room_exit
      python3 -c "import json; d = json.load(open('scenes/room_exit.json')); d['groups'][0]['social'] = {'sizes': [0.4, 0.3, 0.2, 0.1]}; json.dump(d, open('/tmp/social_units.json', 'w'))"
      for sc in scenes/old_town_small.json scenes/city_district.json scenes/street_incident.json scenes/smoke_room.json \
                scenes/city_active_region.json scenes/vehicle_crossing.json scenes/fire_door_close.json /tmp/social_units.json; do
        for b in cuda cpu; do
          d=/tmp/feat_$(basename "$sc" .json)_$b; rm -rf "$d"
          t0=$(date +%s%N)
          timeout "$(left 40)" "$X" run "$sc" --backend $b --steps 200 --out "$d" --snapshot-every 2 --snapshot-format npy \
            --fields density,velocity,pressure,potential,discomfort,incident_distance,traffic --quiet > "$d.log" 2>&1
          rc=$?
          heads=$(python3 -c "import json; a = json.load(open('$d/summary.json'))['agents']; print(a['exited'], a['remaining'])" 2>/dev/null)
          echo "$(basename "$sc") $b rc=$rc wall=$((($(date +%s%N) - t0) / 1000000)) ms exited,remaining=$heads $(grep -m2 -iE 'error|run finished|what|abort' "$d.log" | tr '\n' ' ' | cut -c1-300)" |
            tee -a "$out/features.log"
        done
      done ;;
    *)
      timeout "$(left 120)" "$T" --gtest_filter="$s" 2>&1 | tee -a "$out/filtered.log" | tail -40 ;;
  esac
done
section "done"
# the issues' GPU targets against what this call measured, last in the call's output
python3 bench/gpu_targets.py "$out" 2>&1

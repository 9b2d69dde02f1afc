#!/bin/bash
# Trial only (docs/decisions.md, "Short rows and narrow columns" (8)): what ran on the H200,
# from a copy of the repository whose .device-run/ held bin.tar.xz (the fold_* builds of
# harness.cu, gpu_tests, reductionlab-cli) and this script.
cd "$(dirname "$0")"
HERE=$PWD
mkdir -p /tmp/r && tar xJf bin.tar.xz -C /tmp/r && B=/tmp/r/bin
R=$OUT/r && mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt
date -u +%FT%TZ >> $R/gpu.txt
cat $B/COMMIT >> $R/gpu.txt
cd $R
(cd "$HERE" && timeout 150 $B/gpu_tests --gtest_filter='*Segmented*:*LargeOdd*' 2>&1 | tail -5) > $R/tests.txt
export EXP_DUMP=1
S24="524288:32 65536:256 16384:1024 4096:4096 1024:16384 256:65536"
A=""; Bm=""; C=""; for sh in $S24; do A="$A i:$sh:0"; Bm="$Bm i:$sh:2"; done
$B/fold_base $A $Bm > s24_base.txt 2>&1
$B/fold_red $Bm > s24_red.txt 2>&1
$B/fold_base $A > s24_base2.txt 2>&1
$B/fold_red $Bm > s24_red2.txt 2>&1
$B/fold_base i:65536:4096:0 i:16380:16388:0 i:65520:4097:0 f:65520:4097:0 i:16380:16388:1 f:16380:16388:1 f:16380:16388:0 i:65520:4097:0 i:32760:8194:0 f:32760:8194:0 > base1.txt 2>&1
$B/fold_base f:65520:4097:0 i:65520:4097:0 i:16380:16388:1 i:16380:16388:0 > base2.txt 2>&1
$B/fold_skip i:65520:4097:0 f:65520:4097:0 i:16380:16388:0 i:32760:8194:0 f:32760:8194:0 > skip.txt 2>&1
$B/fold_trace i:65520:4097:0:tr_i_fold.txt f:65520:4097:0:tr_f_fold.txt i:16380:16388:0:tr_i_view.txt i:16380:16388:1:tr_i_view1.txt > trace.txt 2>&1
cd $OUT && tar czf all.tar.gz r && rm -rf r

#!/usr/bin/env python3
"""Soak test of the twinvmaf CLI under load (issue 17, item 6; not in CI).

Makes RUNS short scorings with random inputs (sizes 1x1 to 320x240, every
chroma format and bit depth, raw or Y4M, a file or a pipe on standard input),
random features and options or a model, random --threads, --subsample,
--frame_cnt, output format and precision, and runs each twice:

  1. alone, one after the other: the reference;
  2. all of them at once, JOBS at a time, in a shuffled order, a tenth of
     them interrupted (SIGINT or SIGTERM) after a random delay.

It then checks that every run of phase 2 gave the reference's exit status,
standard error and output bytes (the wall-clock fps excepted); that an
interrupted run left no output file, or one equal to the reference when it
had finished already; that no temporary file (.twinvmaf-*) is left anywhere
and nothing in $TMPDIR; and that no run ended with a descriptor open beyond
standard input, output and error (an LD_PRELOAD library, compiled here,
lists them when the process exits).

  tools/soak.py [--runs 1000] [--jobs 2*cores] [--binary build/release/twinvmaf] [--seed 1]

Prints the figures and exits 1 on any mismatch.
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Features with options that are valid for them (each option list may be
# empty). Features refuse some small sizes; the refusal is compared too.
FEATURES = {
    'psnr': ['enable_chroma=false', 'enable_mse=true', 'enable_apsnr=true', 'min_sse=0.5', 'reduced_hbd_peak=true'],
    'motion': ['motion_five_frame_window=true', 'motion_force_zero=true', 'debug=true'],
    'vif': ['debug=true', 'vif_enhn_gain_limit=1.0'],
    'adm': ['debug=true', 'adm_enhn_gain_limit=1.2', 'adm_csf_mode=2'],
    'float_psnr': [], 'float_ansnr': [], 'float_moment': [],
    'ciede': [], 'psnr_hvs': [],
    'float_ssim': ['enable_db=true', 'enable_db=true:clip_db=true'],
    'float_ms_ssim': ['enable_lcs=true', 'enable_db=true'],
    'float_vif': ['debug=true'], 'float_motion': ['debug=true'],
    'float_adm': ['debug=true'],
    'cambi': ['full_ref=true'],
    'speed_chroma': [], 'speed_temporal': [],
}
MODELS = ['vmaf_v0.6.1', 'vmaf_v0.6.1neg', 'vmaf_b_v0.6.3', 'vmaf_float_v0.6.1', 'vmaf_v1.0.16_3d0h']
FORMATS = ['--xml', '--json', '--csv', '--sub']

FD_CHECK_C = r'''
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* At exit: every descriptor other than 0, 1, 2 (and the one reading
   /proc/self/fd) is a leak; one line per process to $SOAK_FD_LOG. */
__attribute__((destructor)) static void soak_fd_check(void)
{
    const char* log = getenv("SOAK_FD_LOG");
    if (!log) return;
    DIR* dir = opendir("/proc/self/fd");
    if (!dir) return;
    char line[4096];
    int used = 0, leaks = 0;
    struct dirent* entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        int fd = atoi(entry->d_name);
        if (fd <= 2 || fd == dirfd(dir)) continue;
        char link[256], target[512];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, target, sizeof target - 1);
        target[n > 0 ? n : 0] = 0;
        if (used < 3500) used += snprintf(line + used, sizeof line - used, " %d->%s", fd, target);
        ++leaks;
    }
    closedir(dir);
    if (!leaks) return;
    int out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (out < 0) return;
    char head[64];
    int h = snprintf(head, sizeof head, "pid %d:", (int)getpid());
    if (write(out, head, h) < 0 || write(out, line, used) < 0 || write(out, "\n", 1) < 0) {}
    close(out);
}
'''


def frame_bytes(w, h, chroma, depth):
    cw = w if chroma == '444' else (w + 1) // 2
    ch = h if chroma != '420' else (h + 1) // 2
    return (w * h + 2 * cw * ch) * (2 if depth > 8 else 1)


def make_inputs(rng, folder, count):
    """Pairs of random videos: (ref, dis, raw geometry args or '')."""
    pairs = []
    for i in range(count):
        # Mostly sizes every feature takes; some tiny ones that several refuse.
        w, h = rng.choice([(rng.randint(1, 40), rng.randint(1, 40)), (rng.randint(64, 320), rng.randint(64, 240)),
                           (rng.randint(176, 320), rng.randint(176, 240)), (176, 176)])
        chroma = rng.choice(['420', '422', '444'])
        depth = rng.choice([8, 10, 12, 16])
        frames = rng.randint(1, 8)
        size = frame_bytes(w, h, chroma, depth)
        y4m = rng.random() < 0.4
        names = []
        for side in ('ref', 'dis'):
            data = bytearray(rng.getrandbits(8) for _ in range(size * frames)) if size * frames < 400000 else \
                bytearray(os.urandom(size * frames))
            if depth > 8:
                mask = (1 << (depth - 8)) - 1
                for k in range(1, len(data), 2):
                    data[k] &= mask
            name = os.path.join(folder, '%s%d.%s' % (side, i, 'y4m' if y4m else 'yuv'))
            with open(name, 'wb') as f:
                if y4m:
                    tag = chroma + ('' if depth == 8 else 'p%d' % depth)
                    f.write(b'YUV4MPEG2 W%d H%d F25:1 Ip C%s\n' % (w, h, tag.encode()))
                    for k in range(frames):
                        f.write(b'FRAME\n' + data[k * size:(k + 1) * size])
                else:
                    f.write(data)
            names.append(name)
        geometry = '' if y4m else '-w %d -h %d -p %s -b %d' % (w, h, chroma, depth)
        pairs.append((names[0], names[1], geometry))
    return pairs


def make_command(rng, pairs):
    ref, dis, geometry = rng.choice(pairs)
    args = []
    stdin = None
    if rng.random() < 0.15:
        stdin = ref
        ref = '-'
    args += ['-r', ref, '-d', dis] + geometry.split()
    if rng.random() < 0.25:
        args += ['--model', 'version=' + rng.choice(MODELS)]
        if rng.random() < 0.3:
            args += ['-n']
    else:
        args += ['-n']
        for name in rng.sample(sorted(FEATURES), rng.randint(1, 3)):
            options = FEATURES[name]
            args += ['--feature', name + ('=' + rng.choice(options) if options and rng.random() < 0.5 else '')]
    args += ['--threads', str(rng.choice([1, 1, 2, 3, 4, 8, 16]))]
    if rng.random() < 0.3:
        args += ['--subsample', str(rng.randint(1, 4))]
    if rng.random() < 0.3:
        args += ['--frame_cnt', str(rng.randint(1, 5))]
    if rng.random() < 0.2:
        args += ['--frame_skip_ref', str(rng.randint(0, 2))]
    args += [rng.choice(FORMATS), '--precision', rng.choice(['legacy', 'max', '6'])]
    to_stdout = rng.random() < 0.3
    return args, stdin, to_stdout


def without_fps(data):
    return re.sub(rb'fps[^,/\n]*', b'fps', data)


class Runner:
    def __init__(self, binary, work, env):
        self.binary = binary
        self.work = work
        self.env = env

    def run(self, index, command, phase, interrupt=None):
        args, stdin, to_stdout = command
        folder = os.path.join(self.work, phase, str(index))
        os.makedirs(folder, exist_ok=True)
        out_path = os.path.join(folder, 'out')
        argv = [self.binary] + args + ['-o', '-' if to_stdout else out_path]
        feeder = None
        stdin_handle = subprocess.DEVNULL
        if stdin:
            # Through a pipe (cat), not a redirected file.
            feeder = subprocess.Popen(['cat', stdin], stdout=subprocess.PIPE, env=self.env)
            stdin_handle = feeder.stdout
        started = time.monotonic()
        process = subprocess.Popen(argv, stdin=stdin_handle, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=self.env, cwd=folder)
        if feeder:
            feeder.stdout.close()
        timer = None
        if interrupt:
            delay, sig = interrupt
            timer = threading.Timer(delay, lambda: process.poll() is None and process.send_signal(sig))
            timer.start()
        stdout, stderr = process.communicate()
        if timer:
            timer.cancel()
        if feeder:
            feeder.wait()
        elapsed = time.monotonic() - started
        output = stdout if to_stdout else (open(out_path, 'rb').read() if os.path.exists(out_path) else None)
        return {'rc': process.returncode, 'stderr': stderr, 'output': output, 'folder': folder,
                'elapsed': elapsed, 'interrupted': bool(interrupt)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--runs', type=int, default=1000)
    parser.add_argument('--jobs', type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument('--binary', default=os.path.join(ROOT, 'build', 'release', 'twinvmaf'))
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--inputs', type=int, default=40, help='input pairs to draw from')
    parser.add_argument('--keep', action='store_true', help='keep the work folder')
    options = parser.parse_args()
    rng = random.Random(options.seed)

    work = tempfile.mkdtemp(prefix='twinvmaf-soak-')
    tmpdir = os.path.join(work, 'tmp')
    os.makedirs(tmpdir)
    shim = os.path.join(work, 'fdcheck.so')
    source = os.path.join(work, 'fdcheck.c')
    with open(source, 'w') as f:
        f.write(FD_CHECK_C)
    subprocess.check_call(['cc', '-shared', '-fPIC', '-O2', '-o', shim, source])
    fd_log = os.path.join(work, 'fd_leaks.txt')
    env = dict(os.environ, TMPDIR=tmpdir, LD_PRELOAD=shim, SOAK_FD_LOG=fd_log)

    inputs = os.path.join(work, 'inputs')
    os.makedirs(inputs)
    pairs = make_inputs(rng, inputs, options.inputs)
    commands = [make_command(rng, pairs) for _ in range(options.runs)]
    runner = Runner(options.binary, work, env)

    started = time.monotonic()
    reference = [runner.run(i, c, 'reference') for i, c in enumerate(commands)]
    reference_seconds = time.monotonic() - started

    order = list(range(options.runs))
    rng.shuffle(order)
    interrupts = {}
    for i in rng.sample(order, options.runs // 10):
        interrupts[i] = (rng.uniform(0.0, 1.5 * reference[i]['elapsed']), rng.choice([signal.SIGINT, signal.SIGTERM]))
    running = [0]
    peak = [0]
    lock = threading.Lock()

    def parallel(i):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        try:
            return i, runner.run(i, commands[i], 'parallel', interrupts.get(i))
        finally:
            with lock:
                running[0] -= 1

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        results = dict(pool.map(parallel, order))
    parallel_seconds = time.monotonic() - started

    problems = []
    finished_interrupted = killed = 0
    for i, command in enumerate(commands):
        ref, got = reference[i], results[i]
        what = 'run %d (%s)' % (i, ' '.join(command[0]))
        if got['interrupted'] and got['rc'] != ref['rc']:
            killed += 1
            # Ended by the signal: says so, and leaves no output file.
            if b'interrupted by SIG' not in got['stderr'] and got['rc'] not in (-2, -15, 130, 143):
                problems.append('%s: interrupted, but rc %d and stderr %r' % (what, got['rc'], got['stderr'][-200:]))
            # No output, or (a signal after the output was in place) all of it.
            if not command[2] and got['output'] is not None and \
                    without_fps(got['output']) != without_fps(ref['output'] or b''):
                problems.append('%s: interrupted run left a partial output file' % what)
            continue
        if got['interrupted']:
            finished_interrupted += 1
        if got['rc'] != ref['rc']:
            problems.append('%s: exit %d, reference %d: %r' % (what, got['rc'], ref['rc'], got['stderr'][-300:]))
            continue
        if got['stderr'] != ref['stderr']:
            problems.append('%s: stderr differs: %r vs %r' % (what, got['stderr'][-300:], ref['stderr'][-300:]))
        a = without_fps(got['output']) if got['output'] is not None else None
        b = without_fps(ref['output']) if ref['output'] is not None else None
        if a != b:
            problems.append('%s: output differs from the reference' % what)
    temporaries = []
    for base, _, files in os.walk(work):
        temporaries += [os.path.join(base, f) for f in files if '.twinvmaf-' in f]
    leftovers = os.listdir(tmpdir)
    leaks = open(fd_log).read().splitlines() if os.path.exists(fd_log) else []
    problems += ['temporary file left: %s' % t for t in temporaries]
    problems += ['left in $TMPDIR: %s' % t for t in leftovers]
    problems += ['descriptors open at exit: %s' % line for line in leaks]

    ok = sum(1 for r in reference if r['rc'] == 0)
    print('twinvmaf soak: %d commands (%d input pairs, seed %d), binary %s' %
          (options.runs, options.inputs, options.seed, options.binary))
    print('  reference: one at a time, %.1f s (%.1f ms a run); %d scored, %d refused (the same in both phases)' %
          (reference_seconds, 1000 * reference_seconds / options.runs, ok, options.runs - ok))
    print('  parallel:  %d jobs at once (peak %d), %.1f s; %d interrupted by SIGINT/SIGTERM (%d before the end, %d after)' %
          (options.jobs, peak[0], parallel_seconds, len(interrupts), killed, finished_interrupted))
    print('  outputs equal to the reference: %d of %d compared' %
          (options.runs - killed - sum(1 for p in problems if p.startswith('run ')), options.runs - killed))
    print('  temporary files left: %d, files left in $TMPDIR: %d, processes with descriptors open at exit: %d' %
          (len(temporaries), len(leftovers), len(leaks)))
    reasons = {}
    for r in reference:
        if r['rc'] != 0:
            line = r['stderr'].decode(errors='replace').split('\n')[0]
            reason = re.sub(r'/\S+', '<path>', line)
            reason = re.sub(r'\d+', 'N', reason)[:90]
            reasons[reason] = reasons.get(reason, 0) + 1
    print('  refusals (reference phase), by message:')
    for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1])[:12]:
        print('    %5d  %s' % (count, reason))
    for problem in problems[:50]:
        print('PROBLEM: ' + problem)
    if options.keep or problems:
        print('work folder kept: ' + work)
    else:
        shutil.rmtree(work)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

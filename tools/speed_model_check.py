#!/usr/bin/env python3
"""Checks twinvmaf's speed_chroma against the speed_chroma_* values stored in
Netflix's VMAF v1.0.16 model goldens (../shared/fixtures/*/golden/vmaf_v1.0.16_*.json).

The options are read back from each key's suffix (_mxv_45_nnf_0.1_ps_0.6_...),
speed_chroma is run with them (--no_prediction), and every frame's value must
be the identical double. Prints frames identical / total per fixture and run;
exits 1 on any difference. Usage: tools/speed_model_check.py [build/release/twinvmaf]"""
import glob, json, os, re, subprocess, sys, tempfile

ALIASES = {'ks': 'speed_kernelscale', 'ps': 'speed_prescale', 'psm': 'speed_prescale_method',
           'snn': 'speed_sigma_nn', 'nnf': 'speed_nn_floor', 'mxv': 'speed_max_val',
           'wvm': 'speed_weight_var_mode'}
here = os.path.dirname(os.path.abspath(__file__))
tool = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', 'build', 'release', 'twinvmaf')
fixtures = os.environ.get('TWINVMAF_FIXTURES', os.path.join(here, '..', '..', 'shared', 'fixtures'))
bad = 0
for fx in sorted(glob.glob(os.path.join(fixtures, '*', 'fixture.json'))):
    d = os.path.dirname(fx); info = json.load(open(fx)); name = os.path.basename(d)
    for g in sorted(glob.glob(os.path.join(d, 'golden', 'vmaf_v1.0.16_*.json'))):
        frames = json.load(open(g))['frames']
        keys = [k for k in frames[0]['metrics'] if k == 'speed_chroma_u' or k.startswith('speed_chroma_u_')]
        for key in keys:
            suffix = key[len('speed_chroma_u'):]
            toks = suffix.strip('_').split('_')
            opts = []
            i = 0
            while i < len(toks):
                opts.append(f"{ALIASES[toks[i]]}={toks[i + 1]}"); i += 2
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, 'o.json')
                cmd = [tool, '-r', f'{d}/ref.yuv', '-d', f'{d}/dis.yuv', '-w', str(info['width']),
                       '-h', str(info['height']), '-p', str(info['pixel_format']), '-b', str(info['bitdepth']),
                       '--threads', '1', '--no_prediction', '--feature', 'speed_chroma=' + ':'.join(opts),
                       '--json', '--precision', 'max', '-o', out]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    print(f"{name:28s} {os.path.basename(g):34s} FAILED: {r.stderr.strip()[:200]}"); bad += 1; continue
                ours = json.load(open(out))['frames']
            same = 0
            for fo, fg in zip(ours, frames):
                if all(fo['metrics'].get(c + suffix) == fg['metrics'][c + suffix]
                       for c in ('speed_chroma_u', 'speed_chroma_v', 'speed_chroma_uv')):
                    same += 1
            ok = same == len(frames) == len(ours)
            bad += not ok
            print(f"{name:28s} {os.path.basename(g):34s} {suffix}: {same}/{len(frames)} identical{'' if ok else '  DIFFERENT'}")
sys.exit(1 if bad else 0)

#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora (tests/fuzz/corpus/<fuzzer>/) and
dictionaries (<fuzzer>.dict). Run from anywhere; the output is committed, so
rerun it only to change the seeds. Inputs that a fuzzer found crashing are
kept as regression seeds in corpus/<fuzzer>/ too (named found-*), and this
script leaves them alone."""
import glob
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def frame(w, h, chroma, depth, seed=1):
    cw = w if chroma == 444 else (w + 1) // 2
    ch = h if chroma != 420 else (h + 1) // 2
    samples = w * h + 2 * cw * ch
    out = bytearray()
    for i in range(samples):
        v = (i * 37 + seed * 11) % (1 << depth)
        out += bytes([v & 0xFF]) if depth == 8 else struct.pack('<H', v)
    return bytes(out)


def y4m(w, h, tag, chroma, depth, frames, frame_header=b'FRAME\n', extra=b' F25:1 Ip A1:1'):
    head = b'YUV4MPEG2 W%d H%d%s C%s\n' % (w, h, extra, tag.encode())
    return head + b''.join(frame_header + frame(w, h, chroma, depth, i) for i in range(frames))


def write(fuzzer, name, data):
    folder = os.path.join(HERE, 'corpus', fuzzer)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), 'wb') as f:
        f.write(data)


def seeds_y4m():
    write('y4m', 'plain_420', b'\0' + y4m(4, 2, '420jpeg', 420, 8, 2))
    write('y4m', 'pipe_444p10', b'\1' + y4m(3, 3, '444p10', 444, 10, 2))
    write('y4m', 'skip_422p12_params', bytes([2 | 4]) + y4m(5, 3, '422p12', 422, 12, 3, b'FRAME Ixyz\n'))
    write('y4m', 'flags_32x18', bytes([32]) + y4m(32, 18, '420', 420, 8, 1))
    write('y4m', 'comment_420p16', b'\0' + y4m(2, 2, '420p16', 420, 16, 1, extra=b' XYSCSS=420P16 F30000:1001'))
    write('y4m', 'truncated_frame_header', b'\0' + y4m(4, 2, '420', 420, 8, 1) + b'FRA')
    write('y4m', 'huge_claim', b'\0' + b'YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n' + bytes(300))
    write('y4m', 'mono', b'\0' + b'YUV4MPEG2 W2 H2 Cmono\nFRAME\n' + bytes(4))


def seeds_raw():
    def raw(w, h, kind, size, skip, mode, data):
        return struct.pack('<HHB', w, h, kind) + size.to_bytes(6, 'little') + struct.pack('<QB', skip, mode) + data
    f420 = frame(4, 2, 420, 8)
    write('raw', 'two_frames', raw(4, 2, 0, 0, 0, 0, f420 * 2))
    write('raw', 'pipe', raw(4, 2, 0, 0, 1, 1, f420 * 3))
    write('raw', 'sparse_10bit', raw(16, 16, 1 + 3 * 1, 1 << 33, 5, 0, frame(16, 16, 444, 10)))
    write('raw', 'not_whole', raw(3, 3, 2, 100, 0, 0, bytes(10)))
    write('raw', 'huge_geometry', raw(32768, 32768, 2 + 3 * 3, 1 << 40, 1 << 20, 0, b''))


def psnr_model(model_type='LIBSVMNUSVR', extra=''):
    return ('{"model_dict": {"model_type": "%s", "norm_type": "linear_rescale", '
            '"feature_names": ["psnr_y", "psnr_cb"], "slopes": [0.01, 0.02, 0.025], '
            '"intercepts": [-0.5, -0.2, -0.3], "score_clip": [0.0, 100.0],%s '
            '"model": "svm_type nu_svr\\nkernel_type rbf\\ngamma 0.05\\nnr_class 2\\ntotal_sv 2\\n'
            'rho -1.5\\nSV\\n4 1:0.4 2:0.6 \\n-2 1:0.7 2:0.2 \\n"}}' % (model_type, extra))


def seeds_model():
    write('model', 'psnr', b'\0' + psnr_model().encode())
    write('model', 'psnr_file_noclip', b'\3' + psnr_model().encode() + b'\0psnr.enable_chroma=true\0' +
          struct.pack('<4d', 30.0, 31.5, 40.0, 1e300))
    transform = (' "score_transform": {"enabled": true, "p0": 1.0, "p1": 0.9, "p2": null, '
                 '"knots": [[0.0, 0.0], [50.0, 60.0], [100.0, 100.0]], "out_lte_in": "true"},')
    write('model', 'psnr_transform', b'\4' + psnr_model(extra=transform).encode())
    boot = psnr_model('BOOTSTRAP_LIBSVMNUSVR')[len('{'):-1]
    collection = '{"0": {%s}, "1": {%s}, "2": {%s}}' % (boot, boot, boot)
    write('model', 'collection', b'\0' + collection.encode())
    opts = psnr_model(extra=' "feature_opts_dicts": [{"enable_chroma": true, "min_sse": 0.5}],')
    write('model', 'feature_opts', b'\0' + opts.encode())
    # Netflix's own models, as the built-in ones are read (no mode byte: the
    # text starts with '{').
    for name in ('vmaf_v0.6.1.json', 'vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json'):
        with open(os.path.join(ROOT, 'models', name), 'rb') as f:
            write('model', 'netflix_' + os.path.basename(name), f.read())


def seeds_feature_options():
    texts = ['psnr=enable_chroma=false:min_sse=0.5', 'psnr=enable_mse=true:enable_apsnr=true',
             'adm=adm_enhn_gain_limit=1.2:adm_csf_mode=2', 'vif=vif_kernelscale=0.5:debug=true',
             'motion=motion_five_frame_window=true', 'cambi=full_ref=true:window_size=65',
             'float_ms_ssim=enable_lcs=true:enable_db=true', 'float_ssim=scale=1',
             'speed_chroma=speed_prescale=2', 'float_adm=adm_min_val=0.1', 'ciede', 'psnr_hvs',
             'path=model.json:name=x:disable_clip', 'version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.0',
             'float_vif=vif_sigma_nsq=0',
             # The float features (issue 13) and their options.
             'float_motion=motion_add_uv=true:motion_filter_size=3:motion_max_val=10',
             'float_motion=motion_blend_factor=0.5:motion_blend_offset=20:motion_add_scale1=true',
             'float_adm=adm_p_norm=2.5:adm_skip_aim_scale=true:adm_csf_mode=1',
             'float_adm=adm_dlm_weight=0.3:adm_skip_scale0=true:adm_bypass_cm=true',
             'float_vif=vif_prescale=2:vif_prescale_method=bilinear:vif_skip_scale0=true',
             'float_vif=vif_enhn_gain_limit=1.0:vif_kernelscale=0.5',
             'float_ssim=enable_lcs=true:enable_db=true:clip_db=true',
             'float_ms_ssim=enable_lcs=true:clip_db=true', 'float_psnr', 'float_ansnr', 'float_moment',
             'ciede=debug=true', 'psnr_hvs=enable_chroma=false']
    for i, text in enumerate(texts):
        write('feature_options', 'seed%02d' % i, bytes([(i * 37) & 0xFF]) + text.encode())


def seeds_cli_args():
    lines = [
        ['-r', 'a.yuv', '-d', 'b.yuv', '-w', '32', '-h', '18', '-p', '420', '-b', '8', '-n', '--feature', 'psnr'],
        ['-r', 'a.y4m', '-d', 'b.y4m', '--model', 'version=vmaf_v0.6.1:name=x', '--json', '-o', '-'],
        ['--reference=a', '--distorted=b', '--aom_ctc', 'v6.0', '--threads', '4', '--subsample', '2'],
        ['-r', '-', '-d', 'b.y4m', '--nflx_ctc', 'v1.0', '--frame_cnt', '3', '--frame_skip_ref', '1'],
        ['-r', 'a', '-d', 'b', '--backend', 'cuda', '--gpu', '1', '--precision', 'max', '-q'],
        ['-nq', '-r', 'a', '-d', 'b', '--feature', 'cambi=full_ref=true', '--csv'],
        ['--help'], ['-v'],
        ['--batch', 'pairs.txt', '-o', 'outdir', '--json', '--feature', 'float_ssim', '--threads', '2'],
        ['--batch', 'pairs.txt', '-r', 'a', '--gpu', '0', '--backend', 'cpu'],
        ['-r', 'a', '-d', 'b', '--threads', '1025', '--subsample', '0', '--frame_cnt', '18446744073709551616'],
    ]
    for i, words in enumerate(lines):
        write('cli_args', 'seed%02d' % i, b'\0'.join(w.encode() for w in words))


def seeds_pipeline():
    def pair(w, h, fmt, options, data):
        return bytes([w - 1, h - 1, fmt]) + options + b'\n' + data
    write('pipeline', 'tiny_420', pair(7, 5, 0, b'', bytes(range(256))))
    write('pipeline', 'odd_444p10_options', pair(17, 19, 2 + 3 * 1 + 12,
                                                  b'psnr=enable_chroma=false vif=vif_kernelscale=0.5', bytes(range(255, 0, -3))))
    write('pipeline', 'size_33_422p12', pair(33, 33, 1 + 3 * 2 + 24, b'cambi=full_ref=true motion=motion_force_zero=true',
                                             bytes((i * 7) & 0xFF for i in range(600))))
    write('pipeline', 'one_pixel_16bit', pair(1, 1, 0 + 3 * 3, b'float_vif=vif_sigma_nsq=0', b'\xff\x00'))
    # The float features with their options; the last byte picks a SIMD
    # target (format byte + 36 * k).
    write('pipeline', 'float_features_420p8', pair(24, 18, 0 + 36 * 1,
          b'float_motion=motion_add_uv=true float_adm=adm_p_norm=2.5 float_vif=vif_prescale=2 '
          b'float_ssim=enable_lcs=true psnr_hvs=enable_chroma=true',
          bytes((i * 13 + 5) & 0xFF for i in range(700))))
    write('pipeline', 'float_features_444p10', pair(16, 16, 2 + 3 * 1 + 12 + 36 * 2,
          b'float_motion=motion_filter_size=3 float_adm=adm_csf_mode=1 float_vif=vif_skip_scale0=true ciede=debug=true',
          bytes((i * 29) & 0xFF for i in range(500))))
    write('pipeline', 'simd_vif_motion_psnr_422p12', pair(33, 17, 1 + 3 * 2 + 24 + 36 * 3,
          b'psnr=enable_chroma=true vif=vif_kernelscale=1 motion=motion_five_frame_window=true',
          bytes((i * 71) & 0xFF for i in range(900))))


def seeds_batch():
    lists = [
        b'ref.y4m dis.y4m\n',
        b'# a comment\n\na.yuv b.yuv width=32 height=18 pixel_format=420 bitdepth=8 output=out.json\n',
        b'"my ref.yuv" \'my dis.yuv\' w=16 h=16 p=444 b=10 o="out dir/\\"x\\".xml"\r\n',
        b'a.yuv b.yuv w=0 h=99999999999\nc.y4m\nd e unknown=1\n"open quote\n',
        b'- dis.y4m\n- -\nref.y4m - output=-\n',
        b'a b w=32768 h=32769 p=420 b=16\n\ta\tb\tbitdepth=12\n',
    ]
    for i, text in enumerate(lists):
        write('batch', 'seed%02d' % i, bytes([i * 5]) + text)


def seeds_capi():
    def header(flags, pix_fmt, bpc, w, h, pictures, subsample, index, pool, fmt):
        # bpc is 6 + byte % 12
        return struct.pack('<BBBHHBIHBB', flags, pix_fmt, bpc - 6, w, h, pictures, subsample, index, pool, fmt)
    samples = bytes((i * 7 + 3) & 0xFF for i in range(300))
    write('capi', 'psnr_features', header(0, 1, 8, 16, 12, 2, 1, 1, 3, 2) + b'\0fpsnr=enable_chroma=true\0'
          b'ffloat_ssim\0qpsnr_y\0qfloat_ssim\0' + samples)
    write('capi', 'builtin_model_10bit', header(8, 1, 10, 40, 40, 2, 0, 1, 1, 1) + b'vmaf_v0.6.1\0'
          b'oadm=adm_enhn_gain_limit=1.0\0sprecision=max\0qvmaf\0qVMAF_integer_feature_adm2_score\0' + samples)
    write('capi', 'collection_file', header(1 | 2 | 8, 3, 12, 8, 8, 1, 2, 3, 4, 3) +
          ('{"0": {%s}, "1": {%s}}' % ((psnr_model('BOOTSTRAP_LIBSVMNUSVR')[1:-1],) * 2)).encode() +
          b'\0fpsnr\0opsnr=enable_chroma=true\0ipsnr_cb\0' + samples)
    write('capi', 'preallocated_422p16', header(4 | 128, 2, 16, 9, 7, 3, 1, 2, 2, 4) + b'\0fciede\0'
          b'ffloat_motion=motion_add_uv=true\0sbackend=cpu\0sgpu=3\0qciede2000\0' + samples)
    write('capi', 'refusals', header(16, 4, 17, 0x8001, 5, 1, 0xFFFFFFFF, 0xFFFF, 5, 5) + b'no_such_model\0'
          b'fno_such_feature\0fpsnr=no_option=1\0sunknown=1\0ipsnr_y\0ipsnr_y\0' + samples)


def seeds_decode():
    """Tiny clips of the decode test's containers and codecs, made with
    Debian's ffmpeg (16x16 or the encoder's smallest, 3 frames), each whole,
    cut in half and with a byte flipped in the middle; mode bytes as in
    fuzz_decode.cpp."""
    import subprocess
    import tempfile
    clips = [  # name, size, pixel format, encoder arguments, container
        ('h264_mp4', '16x16', 'yuv420p', ['-c:v', 'libx264', '-preset', 'ultrafast'], 'mp4'),
        ('hevc10_mkv', '64x64', 'yuv420p10le', ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params',
                                                'log-level=none'], 'matroska'),
        ('vp9_444_webm', '16x16', 'yuv444p', ['-c:v', 'libvpx-vp9', '-deadline', 'realtime'], 'webm'),
        ('av1_ivf', '16x16', 'yuv420p', ['-c:v', 'libaom-av1', '-cpu-used', '8'], 'ivf'),
        ('mpeg2_ts', '16x16', 'yuv422p', ['-c:v', 'mpeg2video'], 'mpegts'),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, size, pix_fmt, codec, container in clips:
            out = os.path.join(tmp, name)
            subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=%s:r=25:d=0.12' % size,
                            '-pix_fmt', pix_fmt] + codec + ['-f', container, '-y', out], check=True)
            data = open(out, 'rb').read()
            flipped = bytearray(data)
            flipped[len(data) // 2] ^= 0x55
            write('decode', name, b'\0' + data)
            write('decode', name + '_scaled_converted', b'\x03' + data)
            write('decode', name + '_cut', b'\x20' + data[:len(data) // 2])
            write('decode', name + '_flipped', b'\x08' + bytes(flipped))
        # Two video streams: the second one asked for (mode bit 2).
        out = os.path.join(tmp, 'two_streams')
        subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=16x16:r=25:d=0.12', '-f', 'lavfi',
                        '-i', 'testsrc2=s=32x16:r=25:d=0.08', '-map', '0', '-map', '1', '-c:v', 'libx264',
                        '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'matroska', '-y', out], check=True)
        write('decode', 'two_streams_second', b'\x04' + open(out, 'rb').read())


def option_names():
    names = set()
    for path in glob.glob(os.path.join(ROOT, 'src', 'features', '*', '*.cpp')):
        with open(path) as f:
            names.update(re.findall(r'\.name = "([a-z_0-9]+)"', f.read()))
    return sorted(names)


def dictionaries():
    def write_dict(name, tokens):
        with open(os.path.join(HERE, name + '.dict'), 'w') as f:
            f.write('# Tokens for libFuzzer -dict= (tests/fuzz/make_seeds.py)\n')
            for token in tokens:
                f.write('"%s"\n' % ''.join(c if ' ' <= c <= '~' and c not in '"\\' else '\\x%02X' % ord(c)
                                           for c in token))
    y4m_tokens = ['YUV4MPEG2 ', 'FRAME\n', 'FRAME ', ' W', ' H', ' F', ' I', ' A', ' X', ' C', '\n']
    y4m_tokens += ['C' + tag for tag in ('420', '420jpeg', '420paldv', '420mpeg2', '422', '444', '420p10', '420p12',
                                          '420p16', '422p10', '422p12', '422p16', '444p10', '444p12', '444p16', 'mono')]
    write_dict('y4m', y4m_tokens)
    names = option_names()
    write_dict('feature_options', names + ['=', ':', 'true', 'false', 'path=', 'version=', 'name=', '.'])
    write_dict('pipeline', names + ['=', ':', ' ', 'true', 'false'])
    write_dict('model', ['"model_dict"', '"model_type"', '"norm_type"', '"feature_names"', '"slopes"',
                         '"intercepts"', '"score_clip"', '"score_transform"', '"feature_opts_dicts"',
                         '"chroma_correction_parameter"', '"model"', '"enabled"', '"knots"', '"p0"', '"p1"', '"p2"',
                         '"out_lte_in"', '"out_gte_in"', '"LIBSVMNUSVR"', '"BOOTSTRAP_LIBSVMNUSVR"',
                         '"RESIDUEBOOTSTRAP_LIBSVMNUSVR"', '"linear_rescale"', '"none"', '"0"', '"1"',
                         'svm_type', 'nu_svr', 'kernel_type', 'rbf', 'gamma', 'nr_class', 'total_sv', 'rho', 'SV',
                         'probA', 'label', 'nr_sv', '1e308', '-1e308', '1e999', 'NaN', 'nan', '-0', '2147483647'])
    write_dict('batch', [' ', '\t', '\n', '\r\n', '#', '"', "'", '\\', '=', 'width=', 'height=', 'pixel_format=',
                         'bitdepth=', 'output=', 'w=', 'h=', 'p=', 'b=', 'o=', '420', '422', '444', '8', '10', '12',
                         '16', '32768', '4294967296', '-', '.y4m', '.yuv'])
    write_dict('capi', names + ['\0', '\0f', '\0o', '\0s', '\0i', '\0q', '=', ':', 'true', 'false', 'backend=',
                                'gpu=', 'precision=', 'cpu', 'auto', 'max', 'vmaf_v0.6.1', 'vmaf_b_v0.6.3',
                                'vmaf_4k_v0.6.1', 'psnr_y', 'vmaf', 'integer_adm2', '{"model_dict": {'])
    write_dict('cli_args', ['-r', '-d', '-w', '-h', '-p', '-b', '-m', '-o', '-n', '-v', '-q', '-', '--reference',
                            '--distorted', '--width', '--height', '--pixel_format', '--bitdepth', '--model',
                            '--output', '--xml', '--json', '--csv', '--sub', '--threads', '--feature', '--subsample',
                            '--cpumask', '--aom_ctc', '--nflx_ctc', '--frame_cnt', '--frame_skip_ref',
                            '--frame_skip_dist', '--precision', '--backend', '--gpu', '--no_prediction',
                            '--version', '--quiet', '--help', '--batch', 'version=', 'path=', 'name=', 'disable_clip',
                            'enable_transform', 'vmaf_v0.6.1', 'v1.0', 'v7.0', 'cuda', 'hip', 'cpu', 'auto',
                            'max', 'legacy', '420', '422', '444', '0x', '\0'])


if __name__ == '__main__':
    seeds_y4m()
    seeds_raw()
    seeds_model()
    seeds_feature_options()
    seeds_cli_args()
    seeds_pipeline()
    seeds_batch()
    seeds_capi()
    seeds_decode()
    dictionaries()

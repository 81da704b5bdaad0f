// SSIMULACRA 2 arithmetic (the lusoris/vmaf fork's "ssimulacra2" extractor,
// libvmaf/src/feature/ssimulacra2.c at commit
// c2a3c7e0febd98a6831b9bfebe5e298e229b1244), for the CPU reference and its
// GPU twin: every per-sample step, in the fork's types and order.
//
// Per frame (ssimulacra2.h has the whole pipeline):
//   YUV -> non-linear RGB (yuv_matrix: BT.709/BT.601, limited/full), clamped
//   to [0, 1] -> the fork's sRGB EOTF (a 1024-entry table with linear
//   interpolation, not powf) -> linear RGB; per scale (at most 6, each a 2x2
//   box of the one above while both sides are >= 8): XYB with the fork's
//   cube root (a bit trick and two Newton steps, not cbrtf), the 3-pole
//   recursive Gaussian (sigma 1.5, zero padding) of both pictures, their
//   squares and product, then per channel the SSIM and edge-difference
//   terms, summed in double; 108 weighted norms pooled into 0..100 with
//   glibc's pow on the host.
//
// Everything here is float or double IEEE arithmetic in the fork's order;
// the fork builds its scalar C at the x86-64 baseline (no FMA), so nothing
// is fused. Plain C++ without allocation: compiles for host and device.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::ssimulacra2 {

inline constexpr int kScales = 6;
// A scale is computed while both of its sides are at least this.
inline constexpr unsigned kMinScaleSide = 8;
// Per scale and channel: SSIM's L1 and L4 norms, then the edge map's
// ringing L1, L4 and blurring L1, L4 (plane_averages of the fork).
inline constexpr int kSsimNorms = 2;
inline constexpr int kEdgeNorms = 4;
inline constexpr int kNormsPerChannel = kSsimNorms + kEdgeNorms;
inline constexpr int kNormsPerScale = 3 * kNormsPerChannel;

// ---------------------------------------------------------------- YUV -> RGB

// The fork's yuv_matrix option.
enum class YuvMatrix : int { kBt709Limited = 0, kBt601Limited = 1, kBt709Full = 2, kBt601Full = 3 };

// The coefficients of picture_to_linear_rgb, each computed in float as the
// fork does (its compiler folds them with float rounding).
struct RgbParams {
    float inv_peak;  // 1 / (2^bpc - 1)
    float y_off, y_scale, c_scale;
    float cr_r, cb_g, cr_g, cb_b;
};

TV_HD RgbParams rgb_params(YuvMatrix matrix, unsigned bitdepth)
{
    const bool bt709 = matrix == YuvMatrix::kBt709Limited || matrix == YuvMatrix::kBt709Full;
    const bool limited = matrix == YuvMatrix::kBt709Limited || matrix == YuvMatrix::kBt601Limited;
    const float kr = bt709 ? 0.2126f : 0.299f;
    const float kg = bt709 ? 0.7152f : 0.587f;
    const float kb = bt709 ? 0.0722f : 0.114f;
    RgbParams p{};
    const float peak = static_cast<float>((1u << bitdepth) - 1u);
    p.inv_peak = 1.0f / peak;
    p.cr_r = 2.0f * (1.0f - kr);
    p.cb_b = 2.0f * (1.0f - kb);
    p.cb_g = -(2.0f * kb * (1.0f - kb)) / kg;
    p.cr_g = -(2.0f * kr * (1.0f - kr)) / kg;
    p.y_scale = limited ? (255.0f / 219.0f) : 1.0f;
    p.c_scale = limited ? (255.0f / 224.0f) : 1.0f;
    p.y_off = limited ? (16.0f / 255.0f) : 0.0f;
    return p;
}

// The fork's read_plane(): the chroma sample of luma position x (or y) for a
// chroma plane of `chroma` samples against `luma`: the same position, half
// of it where the plane is exactly half, else x * chroma / luma (64-bit
// integer division); clamped to the plane.
TV_HD unsigned chroma_position(unsigned x, unsigned chroma, unsigned luma)
{
    unsigned s;
    if (chroma == luma)
        s = x;
    else if (chroma * 2 == luma)
        s = x >> 1;
    else
        s = static_cast<unsigned>(static_cast<std::int64_t>(x) * static_cast<std::int64_t>(chroma) /
                                  static_cast<std::int64_t>(luma));
    return s >= chroma ? chroma - 1 : s;
}

// The sRGB EOTF table of ssimulacra2_eotf_lut.h (its float bit patterns):
// entry i is the EOTF of i / 1023.
inline constexpr int kEotfTableSize = 1024;
TV_HD float eotf_table(int i)
{
    static constexpr std::uint32_t kTable[kEotfTableSize] = {
        0x00000000u, 0x389eab3cu, 0x391eab3cu, 0x396e00dau, 0x399eab3cu, 0x39c6560bu, 0x39ee00dau, 0x3a0ad5d4u,
        0x3a1eab3cu, 0x3a3280a3u, 0x3a46560bu, 0x3a5a2b72u, 0x3a6e00dau, 0x3a80eb21u, 0x3a8ad5d4u, 0x3a94c088u,
        0x3a9eab3cu, 0x3aa895f0u, 0x3ab280a3u, 0x3abc6b57u, 0x3ac6560bu, 0x3ad040bfu, 0x3ada2b72u, 0x3ae41626u,
        0x3aee00dau, 0x3af7eb8eu, 0x3b00eb21u, 0x3b05e07au, 0x3b0ad5d4u, 0x3b0fcb2eu, 0x3b14c088u, 0x3b19b5e2u,
        0x3b1eab3cu, 0x3b23a096u, 0x3b2895f0u, 0x3b2d8b49u, 0x3b3280a3u, 0x3b3775fdu, 0x3b3c6b57u, 0x3b4160b1u,
        0x3b46560bu, 0x3b4b4b65u, 0x3b5051c6u, 0x3b557194u, 0x3b5aa403u, 0x3b5fe928u, 0x3b654115u, 0x3b6aabddu,
        0x3b702993u, 0x3b75ba4au, 0x3b7b5e13u, 0x3b808a81u, 0x3b836f95u, 0x3b865e4eu, 0x3b8956b5u, 0x3b8c58d4u,
        0x3b8f64b3u, 0x3b927a5bu, 0x3b9599d6u, 0x3b98c32bu, 0x3b9bf664u, 0x3b9f338au, 0x3ba27aa6u, 0x3ba5cbbfu,
        0x3ba926dfu, 0x3bac8c0eu, 0x3baffb55u, 0x3bb374bcu, 0x3bb6f84cu, 0x3bba860eu, 0x3bbe1e08u, 0x3bc1c045u,
        0x3bc56cccu, 0x3bc923a5u, 0x3bcce4d9u, 0x3bd0b06fu, 0x3bd48671u, 0x3bd866e6u, 0x3bdc51d6u, 0x3be04749u,
        0x3be44747u, 0x3be851d9u, 0x3bec6705u, 0x3bf086d5u, 0x3bf4b14fu, 0x3bf8e67du, 0x3bfd2664u, 0x3c00b887u,
        0x3c02e341u, 0x3c051364u, 0x3c0748f3u, 0x3c0983f3u, 0x3c0bc467u, 0x3c0e0a53u, 0x3c1055bbu, 0x3c12a6a3u,
        0x3c14fd0eu, 0x3c175900u, 0x3c19ba7du, 0x3c1c2188u, 0x3c1e8e25u, 0x3c210058u, 0x3c237825u, 0x3c25f58eu,
        0x3c287899u, 0x3c2b0148u, 0x3c2d8f9eu, 0x3c3023a0u, 0x3c32bd52u, 0x3c355cb6u, 0x3c3801d0u, 0x3c3aaca4u,
        0x3c3d5d35u, 0x3c401386u, 0x3c42cf9cu, 0x3c45917au, 0x3c485923u, 0x3c4b269bu, 0x3c4df9e5u, 0x3c50d304u,
        0x3c53b1fcu, 0x3c5696d1u, 0x3c598185u, 0x3c5c721du, 0x3c5f689bu, 0x3c626503u, 0x3c656758u, 0x3c686f9eu,
        0x3c6b7dd7u, 0x3c6e9208u, 0x3c71ac34u, 0x3c74cc5du, 0x3c77f288u, 0x3c7b1eb7u, 0x3c7e50edu, 0x3c80c497u,
        0x3c8263bfu, 0x3c8405f0u, 0x3c85ab2bu, 0x3c875372u, 0x3c88fec6u, 0x3c8aad2au, 0x3c8c5e9eu, 0x3c8e1324u,
        0x3c8fcabfu, 0x3c91856fu, 0x3c934336u, 0x3c950416u, 0x3c96c80fu, 0x3c988f25u, 0x3c9a5958u, 0x3c9c26aau,
        0x3c9df71cu, 0x3c9fcab0u, 0x3ca1a168u, 0x3ca37b44u, 0x3ca55848u, 0x3ca73873u, 0x3ca91bc8u, 0x3cab0248u,
        0x3cacebf4u, 0x3caed8cfu, 0x3cb0c8dau, 0x3cb2bc15u, 0x3cb4b283u, 0x3cb6ac26u, 0x3cb8a8feu, 0x3cbaa90du,
        0x3cbcac54u, 0x3cbeb2d6u, 0x3cc0bc93u, 0x3cc2c98du, 0x3cc4d9c6u, 0x3cc6ed3eu, 0x3cc903f8u, 0x3ccb1df5u,
        0x3ccd3b36u, 0x3ccf5bbcu, 0x3cd17f8au, 0x3cd3a6a1u, 0x3cd5d101u, 0x3cd7feadu, 0x3cda2fa6u, 0x3cdc63edu,
        0x3cde9b84u, 0x3ce0d66bu, 0x3ce314a6u, 0x3ce55634u, 0x3ce79b18u, 0x3ce9e353u, 0x3cec2ee5u, 0x3cee7dd2u,
        0x3cf0d019u, 0x3cf325bdu, 0x3cf57ebeu, 0x3cf7db1eu, 0x3cfa3adfu, 0x3cfc9e02u, 0x3cff0488u, 0x3d00b739u,
        0x3d01ede1u, 0x3d03263du, 0x3d04604eu, 0x3d059c13u, 0x3d06d98eu, 0x3d0818bfu, 0x3d0959a7u, 0x3d0a9c48u,
        0x3d0be0a0u, 0x3d0d26b1u, 0x3d0e6e7du, 0x3d0fb802u, 0x3d110343u, 0x3d12503fu, 0x3d139ef8u, 0x3d14ef6eu,
        0x3d1641a1u, 0x3d179593u, 0x3d18eb44u, 0x3d1a42b4u, 0x3d1b9be5u, 0x3d1cf6d7u, 0x3d1e538au, 0x3d1fb1ffu,
        0x3d211238u, 0x3d227434u, 0x3d23d7f4u, 0x3d253d79u, 0x3d26a4c4u, 0x3d280dd4u, 0x3d2978abu, 0x3d2ae54au,
        0x3d2c53b1u, 0x3d2dc3e0u, 0x3d2f35d9u, 0x3d30a99cu, 0x3d321f29u, 0x3d339681u, 0x3d350fa5u, 0x3d368a96u,
        0x3d380753u, 0x3d3985dfu, 0x3d3b0638u, 0x3d3c8861u, 0x3d3e0c59u, 0x3d3f9221u, 0x3d4119bau, 0x3d42a325u,
        0x3d442e61u, 0x3d45bb70u, 0x3d474a53u, 0x3d48db09u, 0x3d4a6d93u, 0x3d4c01f3u, 0x3d4d9828u, 0x3d4f3034u,
        0x3d50ca17u, 0x3d5265d1u, 0x3d540363u, 0x3d55a2ceu, 0x3d574412u, 0x3d58e730u, 0x3d5a8c29u, 0x3d5c32fdu,
        0x3d5ddbacu, 0x3d5f8638u, 0x3d6132a0u, 0x3d62e0e6u, 0x3d64910au, 0x3d66430du, 0x3d67f6efu, 0x3d69acb1u,
        0x3d6b6454u, 0x3d6d1dd7u, 0x3d6ed93cu, 0x3d709683u, 0x3d7255adu, 0x3d7416bau, 0x3d75d9acu, 0x3d779e81u,
        0x3d79653cu, 0x3d7b2dddu, 0x3d7cf863u, 0x3d7ec4d1u, 0x3d804993u, 0x3d8131b1u, 0x3d821ac4u, 0x3d8304ccu,
        0x3d83efc8u, 0x3d84dbb9u, 0x3d85c8a0u, 0x3d86b67cu, 0x3d87a54eu, 0x3d889517u, 0x3d8985d6u, 0x3d8a778cu,
        0x3d8b6a3au, 0x3d8c5ddeu, 0x3d8d527au, 0x3d8e480eu, 0x3d8f3e9bu, 0x3d903620u, 0x3d912e9eu, 0x3d922814u,
        0x3d932284u, 0x3d941deeu, 0x3d951a52u, 0x3d9617b0u, 0x3d971608u, 0x3d98155bu, 0x3d9915a9u, 0x3d9a16f2u,
        0x3d9b1937u, 0x3d9c1c78u, 0x3d9d20b5u, 0x3d9e25eeu, 0x3d9f2c24u, 0x3da03357u, 0x3da13b87u, 0x3da244b4u,
        0x3da34edfu, 0x3da45a08u, 0x3da56630u, 0x3da67356u, 0x3da7817au, 0x3da8909eu, 0x3da9a0c1u, 0x3daab1e4u,
        0x3dabc407u, 0x3dacd72au, 0x3dadeb4du, 0x3daf0071u, 0x3db01696u, 0x3db12dbcu, 0x3db245e3u, 0x3db35f0du,
        0x3db47938u, 0x3db59466u, 0x3db6b096u, 0x3db7cdc9u, 0x3db8ebffu, 0x3dba0b38u, 0x3dbb2b75u, 0x3dbc4cb6u,
        0x3dbd6efbu, 0x3dbe9244u, 0x3dbfb692u, 0x3dc0dbe4u, 0x3dc2023cu, 0x3dc32999u, 0x3dc451fcu, 0x3dc57b65u,
        0x3dc6a5d4u, 0x3dc7d14au, 0x3dc8fdc6u, 0x3dca2b49u, 0x3dcb59d3u, 0x3dcc8965u, 0x3dcdb9feu, 0x3dceeba0u,
        0x3dd01e49u, 0x3dd151fbu, 0x3dd286b6u, 0x3dd3bc7au, 0x3dd4f347u, 0x3dd62b1eu, 0x3dd763feu, 0x3dd89de8u,
        0x3dd9d8ddu, 0x3ddb14dcu, 0x3ddc51e6u, 0x3ddd8ffbu, 0x3ddecf1bu, 0x3de00f46u, 0x3de1507du, 0x3de292c1u,
        0x3de3d610u, 0x3de51a6cu, 0x3de65fd5u, 0x3de7a64bu, 0x3de8edceu, 0x3dea365fu, 0x3deb7ffdu, 0x3deccaa9u,
        0x3dee1664u, 0x3def632du, 0x3df0b104u, 0x3df1ffebu, 0x3df34fe1u, 0x3df4a0e6u, 0x3df5f2fbu, 0x3df74620u,
        0x3df89a55u, 0x3df9ef9bu, 0x3dfb45f1u, 0x3dfc9d58u, 0x3dfdf5d0u, 0x3dff4f5au, 0x3e0054fbu, 0x3e0102d1u,
        0x3e01b131u, 0x3e02601au, 0x3e030f8cu, 0x3e03bf88u, 0x3e04700du, 0x3e05211cu, 0x3e05d2b4u, 0x3e0684d7u,
        0x3e073783u, 0x3e07eabau, 0x3e089e7bu, 0x3e0952c6u, 0x3e0a079cu, 0x3e0abcfcu, 0x3e0b72e7u, 0x3e0c295du,
        0x3e0ce05eu, 0x3e0d97eau, 0x3e0e5001u, 0x3e0f08a4u, 0x3e0fc1d2u, 0x3e107b8cu, 0x3e1135d1u, 0x3e11f0a2u,
        0x3e12abffu, 0x3e1367e8u, 0x3e14245du, 0x3e14e15eu, 0x3e159eecu, 0x3e165d06u, 0x3e171badu, 0x3e17dae0u,
        0x3e189aa1u, 0x3e195aeeu, 0x3e1a1bc8u, 0x3e1add30u, 0x3e1b9f25u, 0x3e1c61a7u, 0x3e1d24b7u, 0x3e1de854u,
        0x3e1eac80u, 0x3e1f7139u, 0x3e203680u, 0x3e20fc55u, 0x3e21c2b8u, 0x3e2289aau, 0x3e23512au, 0x3e241939u,
        0x3e24e1d6u, 0x3e25ab03u, 0x3e2674beu, 0x3e273f08u, 0x3e2809e1u, 0x3e28d549u, 0x3e29a141u, 0x3e2a6dc8u,
        0x3e2b3adfu, 0x3e2c0886u, 0x3e2cd6bcu, 0x3e2da582u, 0x3e2e74d8u, 0x3e2f44bfu, 0x3e301535u, 0x3e30e63cu,
        0x3e31b7d4u, 0x3e3289fcu, 0x3e335cb4u, 0x3e342ffeu, 0x3e3503d8u, 0x3e35d844u, 0x3e36ad40u, 0x3e3782ceu,
        0x3e3858edu, 0x3e392f9eu, 0x3e3a06e0u, 0x3e3adeb4u, 0x3e3bb719u, 0x3e3c9011u, 0x3e3d699bu, 0x3e3e43b6u,
        0x3e3f1e64u, 0x3e3ff9a4u, 0x3e40d577u, 0x3e41b1dcu, 0x3e428ed4u, 0x3e436c5fu, 0x3e444a7du, 0x3e45292du,
        0x3e460871u, 0x3e46e848u, 0x3e47c8b2u, 0x3e48a9b0u, 0x3e498b41u, 0x3e4a6d66u, 0x3e4b501eu, 0x3e4c336bu,
        0x3e4d174bu, 0x3e4dfbc0u, 0x3e4ee0c8u, 0x3e4fc665u, 0x3e50ac96u, 0x3e51935cu, 0x3e527ab7u, 0x3e5362a6u,
        0x3e544b2au, 0x3e553443u, 0x3e561df1u, 0x3e570834u, 0x3e57f30cu, 0x3e58de7au, 0x3e59ca7du, 0x3e5ab715u,
        0x3e5ba444u, 0x3e5c9208u, 0x3e5d8062u, 0x3e5e6f52u, 0x3e5f5ed8u, 0x3e604ef4u, 0x3e613fa7u, 0x3e6230efu,
        0x3e6322cfu, 0x3e641545u, 0x3e650852u, 0x3e65fbf5u, 0x3e66f030u, 0x3e67e501u, 0x3e68da6au, 0x3e69d06au,
        0x3e6ac701u, 0x3e6bbe30u, 0x3e6cb5f6u, 0x3e6dae54u, 0x3e6ea74au, 0x3e6fa0d7u, 0x3e709afdu, 0x3e7195bbu,
        0x3e729110u, 0x3e738cfeu, 0x3e748985u, 0x3e7586a3u, 0x3e76845bu, 0x3e7782abu, 0x3e788194u, 0x3e798116u,
        0x3e7a8130u, 0x3e7b81e4u, 0x3e7c8331u, 0x3e7d8518u, 0x3e7e8797u, 0x3e7f8ab1u, 0x3e804732u, 0x3e80c958u,
        0x3e814bcbu, 0x3e81ce8bu, 0x3e825198u, 0x3e82d4f3u, 0x3e83589au, 0x3e83dc8eu, 0x3e8460d0u, 0x3e84e55fu,
        0x3e856a3bu, 0x3e85ef65u, 0x3e8674dcu, 0x3e86faa0u, 0x3e8780b2u, 0x3e880711u, 0x3e888dbfu, 0x3e8914b9u,
        0x3e899c02u, 0x3e8a2398u, 0x3e8aab7cu, 0x3e8b33aeu, 0x3e8bbc2eu, 0x3e8c44fbu, 0x3e8cce17u, 0x3e8d5781u,
        0x3e8de139u, 0x3e8e6b3fu, 0x3e8ef593u, 0x3e8f8035u, 0x3e900b26u, 0x3e909665u, 0x3e9121f3u, 0x3e91adcfu,
        0x3e9239f9u, 0x3e92c672u, 0x3e93533au, 0x3e93e050u, 0x3e946db5u, 0x3e94fb69u, 0x3e95896bu, 0x3e9617bdu,
        0x3e96a65du, 0x3e97354cu, 0x3e97c48au, 0x3e985417u, 0x3e98e3f4u, 0x3e99741fu, 0x3e9a049au, 0x3e9a9563u,
        0x3e9b267cu, 0x3e9bb7e5u, 0x3e9c499du, 0x3e9cdba4u, 0x3e9d6dfau, 0x3e9e00a1u, 0x3e9e9396u, 0x3e9f26dcu,
        0x3e9fba71u, 0x3ea04e56u, 0x3ea0e28au, 0x3ea1770eu, 0x3ea20be3u, 0x3ea2a107u, 0x3ea3367bu, 0x3ea3cc3fu,
        0x3ea46253u, 0x3ea4f8b7u, 0x3ea58f6bu, 0x3ea62670u, 0x3ea6bdc4u, 0x3ea75569u, 0x3ea7ed5fu, 0x3ea885a4u,
        0x3ea91e3bu, 0x3ea9b721u, 0x3eaa5058u, 0x3eaae9e0u, 0x3eab83b8u, 0x3eac1de1u, 0x3eacb85bu, 0x3ead5325u,
        0x3eadee41u, 0x3eae89adu, 0x3eaf256au, 0x3eafc178u, 0x3eb05dd7u, 0x3eb0fa87u, 0x3eb19788u, 0x3eb234dau,
        0x3eb2d27du, 0x3eb37072u, 0x3eb40eb8u, 0x3eb4ad4fu, 0x3eb54c37u, 0x3eb5eb71u, 0x3eb68afdu, 0x3eb72adau,
        0x3eb7cb08u, 0x3eb86b88u, 0x3eb90c5au, 0x3eb9ad7du, 0x3eba4ef3u, 0x3ebaf0bau, 0x3ebb92d2u, 0x3ebc353du,
        0x3ebcd7f9u, 0x3ebd7b08u, 0x3ebe1e69u, 0x3ebec21bu, 0x3ebf6620u, 0x3ec00a77u, 0x3ec0af20u, 0x3ec1541bu,
        0x3ec1f969u, 0x3ec29f08u, 0x3ec344fbu, 0x3ec3eb3fu, 0x3ec491d7u, 0x3ec538c0u, 0x3ec5dffdu, 0x3ec6878bu,
        0x3ec72f6du, 0x3ec7d7a1u, 0x3ec88028u, 0x3ec92902u, 0x3ec9d22eu, 0x3eca7baeu, 0x3ecb2580u, 0x3ecbcfa6u,
        0x3ecc7a1eu, 0x3ecd24eau, 0x3ecdd008u, 0x3ece7b7au, 0x3ecf273fu, 0x3ecfd357u, 0x3ed07fc2u, 0x3ed12c81u,
        0x3ed1d993u, 0x3ed286f9u, 0x3ed334b2u, 0x3ed3e2beu, 0x3ed4911eu, 0x3ed53fd2u, 0x3ed5eed9u, 0x3ed69e34u,
        0x3ed74de3u, 0x3ed7fde5u, 0x3ed8ae3cu, 0x3ed95ee6u, 0x3eda0fe4u, 0x3edac136u, 0x3edb72dcu, 0x3edc24d6u,
        0x3edcd725u, 0x3edd89c7u, 0x3ede3cbeu, 0x3edef008u, 0x3edfa3a7u, 0x3ee0579bu, 0x3ee10be2u, 0x3ee1c07eu,
        0x3ee2756fu, 0x3ee32ab4u, 0x3ee3e04du, 0x3ee4963bu, 0x3ee54c7eu, 0x3ee60316u, 0x3ee6ba02u, 0x3ee77143u,
        0x3ee828d8u, 0x3ee8e0c3u, 0x3ee99902u, 0x3eea5196u, 0x3eeb0a7fu, 0x3eebc3beu, 0x3eec7d51u, 0x3eed3739u,
        0x3eedf177u, 0x3eeeac0au, 0x3eef66f2u, 0x3ef0222fu, 0x3ef0ddc1u, 0x3ef199a9u, 0x3ef255e7u, 0x3ef31279u,
        0x3ef3cf62u, 0x3ef48ca0u, 0x3ef54a33u, 0x3ef6081cu, 0x3ef6c65au, 0x3ef784efu, 0x3ef843d9u, 0x3ef90319u,
        0x3ef9c2afu, 0x3efa829au, 0x3efb42dcu, 0x3efc0373u, 0x3efcc461u, 0x3efd85a4u, 0x3efe473eu, 0x3eff092du,
        0x3effcb73u, 0x3f004708u, 0x3f00a881u, 0x3f010a25u, 0x3f016bf5u, 0x3f01cdf0u, 0x3f023016u, 0x3f029267u,
        0x3f02f4e3u, 0x3f03578bu, 0x3f03ba5eu, 0x3f041d5cu, 0x3f048086u, 0x3f04e3dbu, 0x3f05475bu, 0x3f05ab07u,
        0x3f060edeu, 0x3f0672e1u, 0x3f06d70fu, 0x3f073b69u, 0x3f079feeu, 0x3f08049fu, 0x3f08697bu, 0x3f08ce83u,
        0x3f0933b7u, 0x3f099916u, 0x3f09fea0u, 0x3f0a6457u, 0x3f0aca39u, 0x3f0b3046u, 0x3f0b9680u, 0x3f0bfce5u,
        0x3f0c6376u, 0x3f0cca33u, 0x3f0d311bu, 0x3f0d9830u, 0x3f0dff70u, 0x3f0e66dcu, 0x3f0ece74u, 0x3f0f3638u,
        0x3f0f9e28u, 0x3f100644u, 0x3f106e8bu, 0x3f10d6ffu, 0x3f113f9fu, 0x3f11a86bu, 0x3f121163u, 0x3f127a86u,
        0x3f12e3d6u, 0x3f134d53u, 0x3f13b6fbu, 0x3f1420cfu, 0x3f148ad0u, 0x3f14f4fdu, 0x3f155f56u, 0x3f15c9dbu,
        0x3f16348cu, 0x3f169f6au, 0x3f170a74u, 0x3f1775abu, 0x3f17e10du, 0x3f184c9du, 0x3f18b858u, 0x3f192440u,
        0x3f199054u, 0x3f19fc95u, 0x3f1a6902u, 0x3f1ad59cu, 0x3f1b4262u, 0x3f1baf55u, 0x3f1c1c74u, 0x3f1c89c0u,
        0x3f1cf739u, 0x3f1d64deu, 0x3f1dd2afu, 0x3f1e40aeu, 0x3f1eaed9u, 0x3f1f1d30u, 0x3f1f8bb5u, 0x3f1ffa66u,
        0x3f206944u, 0x3f20d84eu, 0x3f214786u, 0x3f21b6eau, 0x3f22267bu, 0x3f229639u, 0x3f230624u, 0x3f23763bu,
        0x3f23e680u, 0x3f2456f2u, 0x3f24c790u, 0x3f25385bu, 0x3f25a954u, 0x3f261a79u, 0x3f268bccu, 0x3f26fd4bu,
        0x3f276ef8u, 0x3f27e0d1u, 0x3f2852d8u, 0x3f28c50cu, 0x3f29376du, 0x3f29a9fbu, 0x3f2a1cb7u, 0x3f2a8f9fu,
        0x3f2b02b5u, 0x3f2b75f8u, 0x3f2be969u, 0x3f2c5d06u, 0x3f2cd0d1u, 0x3f2d44c9u, 0x3f2db8efu, 0x3f2e2d42u,
        0x3f2ea1c2u, 0x3f2f1670u, 0x3f2f8b4bu, 0x3f300054u, 0x3f30758au, 0x3f30eaeeu, 0x3f31607fu, 0x3f31d63eu,
        0x3f324c2au, 0x3f32c243u, 0x3f33388bu, 0x3f33af00u, 0x3f3425a2u, 0x3f349c72u, 0x3f351370u, 0x3f358a9cu,
        0x3f3601f5u, 0x3f36797cu, 0x3f36f131u, 0x3f376913u, 0x3f37e123u, 0x3f385962u, 0x3f38d1cdu, 0x3f394a67u,
        0x3f39c32fu, 0x3f3a3c24u, 0x3f3ab547u, 0x3f3b2e99u, 0x3f3ba818u, 0x3f3c21c5u, 0x3f3c9ba0u, 0x3f3d15a9u,
        0x3f3d8fe0u, 0x3f3e0a45u, 0x3f3e84d8u, 0x3f3eff9au, 0x3f3f7a89u, 0x3f3ff5a7u, 0x3f4070f2u, 0x3f40ec6cu,
        0x3f416814u, 0x3f41e3eau, 0x3f425feeu, 0x3f42dc21u, 0x3f435881u, 0x3f43d510u, 0x3f4451ceu, 0x3f44ceb9u,
        0x3f454bd3u, 0x3f45c91bu, 0x3f464692u, 0x3f46c437u, 0x3f47420au, 0x3f47c00cu, 0x3f483e3du, 0x3f48bc9bu,
        0x3f493b28u, 0x3f49b9e4u, 0x3f4a38ceu, 0x3f4ab7e7u, 0x3f4b372eu, 0x3f4bb6a4u, 0x3f4c3648u, 0x3f4cb61bu,
        0x3f4d361du, 0x3f4db64du, 0x3f4e36acu, 0x3f4eb73au, 0x3f4f37f6u, 0x3f4fb8e1u, 0x3f5039fbu, 0x3f50bb44u,
        0x3f513cbbu, 0x3f51be61u, 0x3f524036u, 0x3f52c23au, 0x3f53446cu, 0x3f53c6ceu, 0x3f54495eu, 0x3f54cc1du,
        0x3f554f0cu, 0x3f55d229u, 0x3f565575u, 0x3f56d8f0u, 0x3f575c9au, 0x3f57e073u, 0x3f58647bu, 0x3f58e8b3u,
        0x3f596d19u, 0x3f59f1aeu, 0x3f5a7673u, 0x3f5afb67u, 0x3f5b8089u, 0x3f5c05dbu, 0x3f5c8b5cu, 0x3f5d110du,
        0x3f5d96ecu, 0x3f5e1cfbu, 0x3f5ea339u, 0x3f5f29a7u, 0x3f5fb043u, 0x3f60370fu, 0x3f60be0bu, 0x3f614535u,
        0x3f61cc90u, 0x3f625419u, 0x3f62dbd2u, 0x3f6363bau, 0x3f63ebd2u, 0x3f647419u, 0x3f64fc90u, 0x3f658536u,
        0x3f660e0cu, 0x3f669711u, 0x3f672046u, 0x3f67a9aau, 0x3f68333eu, 0x3f68bd02u, 0x3f6946f5u, 0x3f69d118u,
        0x3f6a5b6bu, 0x3f6ae5edu, 0x3f6b709fu, 0x3f6bfb81u, 0x3f6c8692u, 0x3f6d11d3u, 0x3f6d9d44u, 0x3f6e28e5u,
        0x3f6eb4b6u, 0x3f6f40b6u, 0x3f6fcce6u, 0x3f705946u, 0x3f70e5d7u, 0x3f717296u, 0x3f71ff86u, 0x3f728ca6u,
        0x3f7319f6u, 0x3f73a776u, 0x3f743525u, 0x3f74c305u, 0x3f755115u, 0x3f75df55u, 0x3f766dc5u, 0x3f76fc65u,
        0x3f778b35u, 0x3f781a35u, 0x3f78a966u, 0x3f7938c6u, 0x3f79c857u, 0x3f7a5818u, 0x3f7ae809u, 0x3f7b782au,
        0x3f7c087cu, 0x3f7c98feu, 0x3f7d29b0u, 0x3f7dba93u, 0x3f7e4ba5u, 0x3f7edce9u, 0x3f7f6e5cu, 0x3f800000u
    };
    return tv::bit_cast<float>(kTable[i]);
}

// vmaf_ss2_srgb_eotf: 0 at or below 0, 1 at or above 1, else the table
// interpolated linearly. Written with selects (the table is read at 0 for
// the ends) so that a loop over it vectorises; the values are the fork's.
TV_HD float srgb_eotf(float x)
{
    const bool low = x <= 0.0f, high = x >= 1.0f;
    const float inside = low || high ? 0.0f : x;
    const float idx = inside * static_cast<float>(kEotfTableSize - 1);
    const int i = static_cast<int>(idx);
    const float frac = idx - static_cast<float>(i);
    const float a = eotf_table(i);
    const float b = eotf_table(i + 1);
    const float value = a + (b - a) * frac;
    return low ? 0.0f : high ? 1.0f : value;
}

// The fork's clampf(v, 0, 1).
TV_HD float clamp01(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

struct LinearRgb {
    float r, g, b;
};

// One pixel of picture_to_linear_rgb from its three samples (converted to
// float, which is exact).
TV_HD LinearRgb yuv_floats_to_linear_rgb(const RgbParams& p, float y_sample, float u_sample, float v_sample)
{
    const float y = y_sample * p.inv_peak;
    const float u = u_sample * p.inv_peak;
    const float v = v_sample * p.inv_peak;
    const float yn = (y - p.y_off) * p.y_scale;
    const float un = (u - 0.5f) * p.c_scale;
    const float vn = (v - 0.5f) * p.c_scale;
    const float r = yn + p.cr_r * vn;
    const float g = yn + p.cb_g * un + p.cr_g * vn;
    const float b = yn + p.cb_b * un;
    return {srgb_eotf(clamp01(r)), srgb_eotf(clamp01(g)), srgb_eotf(clamp01(b))};
}
TV_HD LinearRgb yuv_to_linear_rgb(const RgbParams& p, unsigned y_sample, unsigned u_sample, unsigned v_sample)
{
    return yuv_floats_to_linear_rgb(p, static_cast<float>(y_sample), static_cast<float>(u_sample),
                                    static_cast<float>(v_sample));
}

// ---------------------------------------------------------------- XYB

// vmaf_ss2_cbrtf: 0 at or below 0; else the bits divided by 3 plus
// 0x2a5137a0 as a first guess, then two Newton steps (2y + x / y^2) / 3.
// Selects instead of the fork's early return (1 stands in for x <= 0), so
// that loops over it vectorise; the values are the fork's.
TV_HD float fork_cbrtf(float x)
{
    const bool zero = x <= 0.0f;
    const float arg = zero ? 1.0f : x;
    const std::uint32_t bits = tv::bit_cast<std::uint32_t>(arg) / 3u + 0x2a5137a0u;
    float y = tv::bit_cast<float>(bits);
    y = (2.0f * y + arg / (y * y)) * (1.0f / 3.0f);
    y = (2.0f * y + arg / (y * y)) * (1.0f / 3.0f);
    return zero ? 0.0f : y;
}

// The opsin absorbance matrix and bias (libjxl's opsin_params.h, as floats).
inline constexpr float kM00 = 0.30f;
inline constexpr float kM02 = 0.078f;
inline constexpr float kM10 = 0.23f;
inline constexpr float kM12 = 0.078f;
inline constexpr float kM20 = 0.24342268924547819f;
inline constexpr float kM21 = 0.20476744424496821f;
inline constexpr float kOpsinBias = 0.0037930732552754493f;
// The derived entries, in float as the fork's 1.0f - a - b.
inline constexpr float kM01 = 1.0f - kM00 - kM02;
inline constexpr float kM11 = 1.0f - kM10 - kM12;
inline constexpr float kM22 = 1.0f - kM20 - kM21;

struct Xyb {
    float x, y, b;
};

// linear_rgb_to_xyb with the MakePositiveXYB rescale: `cbrt_bias` is
// fork_cbrtf(kOpsinBias).
TV_HD Xyb linear_rgb_to_xyb(float r, float g, float b, float cbrt_bias)
{
    const float l0 = kM00 * r + kM01 * g + kM02 * b + kOpsinBias;
    const float m0 = kM10 * r + kM11 * g + kM12 * b + kOpsinBias;
    const float s0 = kM20 * r + kM21 * g + kM22 * b + kOpsinBias;
    const float l = l0 < 0.0f ? 0.0f : l0;
    const float m = m0 < 0.0f ? 0.0f : m0;
    const float s = s0 < 0.0f ? 0.0f : s0;
    const float cl = fork_cbrtf(l) - cbrt_bias;
    const float cm = fork_cbrtf(m) - cbrt_bias;
    const float cs = fork_cbrtf(s) - cbrt_bias;
    const float x = 0.5f * (cl - cm);
    const float y = 0.5f * (cl + cm);
    return {x * 14.0f + 0.42f, y + 0.01f, (cs - y) + 0.55f};
}

// downsample_2x2: the four samples added from 0 in the order (x, y),
// (x + 1, y), (x, y + 1), (x + 1, y + 1), times 1/4. The samples are linear
// RGB (>= 0), so 0 + a is a.
TV_HD float box_2x2(float a, float b, float c, float d) { return (((a + b) + c) + d) * 0.25f; }

// ---------------------------------------------------------------- blur

// The recursive Gaussian of create_recursive_gaussian(sigma = 1.5):
// radius N and the three poles' n2 and d1 as floats. The fork computes them
// with glibc's tan, sin, cos and exp in double at every init;
// tests/unit/test_ssimulacra2.cpp recomputes them so with the C library.
// (A function, not an array, so that device code can read it.)
inline constexpr int kBlurRadius = 5;
struct BlurCoefficients {
    float n2[3];
    float d1[3];
};
TV_HD constexpr BlurCoefficients blur_coefficients()
{
    return {{0x1.c4fa84p-5f, -0x1.e1fd7ap-5f, 0x1.a8894ap-7f}, {-0x1.e6f0e2p+0f, -0x1.2cf23p+0f, -0x1.1a6264p-53f}};
}

// One step of the IIR: sum is in[n - N - 1] + in[n + N - 1] (0 outside),
// prev1/prev2 the poles' last two outputs; returns the output at n.
struct IirState {
    float p1[3];
    float p2[3];
};
TV_HD float iir_step(IirState& st, float sum)
{
    constexpr BlurCoefficients k = blur_coefficients();
    const float o0 = k.n2[0] * sum - k.d1[0] * st.p1[0] - st.p2[0];
    const float o1 = k.n2[1] * sum - k.d1[1] * st.p1[1] - st.p2[1];
    const float o2 = k.n2[2] * sum - k.d1[2] * st.p1[2] - st.p2[2];
    st.p2[0] = st.p1[0];
    st.p2[1] = st.p1[1];
    st.p2[2] = st.p1[2];
    st.p1[0] = o0;
    st.p1[1] = o1;
    st.p1[2] = o2;
    return o0 + o1 + o2;
}
// The same step on one element of state vectors (the vertical pass, whose
// state is per column).
TV_HD float iir_step_at(float* p1_0, float* p1_1, float* p1_2, float* p2_0, float* p2_1, float* p2_2, float sum)
{
    constexpr BlurCoefficients k = blur_coefficients();
    const float o0 = k.n2[0] * sum - k.d1[0] * *p1_0 - *p2_0;
    const float o1 = k.n2[1] * sum - k.d1[1] * *p1_1 - *p2_1;
    const float o2 = k.n2[2] * sum - k.d1[2] * *p1_2 - *p2_2;
    *p2_0 = *p1_0;
    *p2_1 = *p1_1;
    *p2_2 = *p1_2;
    *p1_0 = o0;
    *p1_1 = o1;
    *p1_2 = o2;
    return o0 + o1 + o2;
}

// The 1-D pass (fast_gaussian_1d) over n = -N + 1 .. size - 1; output n >= 0
// reads inputs n - N - 1 and n + N - 1.
inline constexpr int kBlurFirstStep = -kBlurRadius + 1;
TV_HD int blur_left(int n) { return n - kBlurRadius - 1; }
TV_HD int blur_right(int n) { return n + kBlurRadius - 1; }

// The input of map m's blur at one step from the samples it adds, a and b
// at the step's left and right columns (or rows): mu1, mu2, sigma11,
// sigma22, sigma12 (the products formed where the fork reads its product
// planes, then added).
TV_HD float blur_input(int m, float la, float ra, float lb, float rb)
{
    switch (m) {
    case 0: return la + ra;
    case 1: return lb + rb;
    case 2: return la * la + ra * ra;
    case 3: return lb * lb + rb * rb;
    default: return la * lb + ra * rb;
    }
}

// ---------------------------------------------------------------- maps

inline constexpr float kC2 = 0.0009f;

// quartic(): (x^2)^2.
TV_HD double quartic(double x)
{
    x *= x;
    return x * x;
}

// One position of ssim_map: 1 - num_m * num_s / denom_s in double, negative
// values set to 0.
TV_HD double ssim_term(float mu1, float mu2, float s11, float s22, float s12)
{
    const float mu11 = mu1 * mu1;
    const float mu22 = mu2 * mu2;
    const float mu12 = mu1 * mu2;
    const float num_m = 1.0f - (mu1 - mu2) * (mu1 - mu2);
    const float num_s = 2.0f * (s12 - mu12) + kC2;
    const float denom_s = (s11 - mu11) + (s22 - mu22) + kC2;
    const double d = 1.0 - (static_cast<double>(num_m) * static_cast<double>(num_s) / static_cast<double>(denom_s));
    return d < 0.0 ? 0.0 : d;
}

// |img - mu| as edge_diff_map takes it: the fork's scalar C in double.
TV_HD double edge_abs_diff(float img, float mu) { return fabs(static_cast<double>(img) - static_cast<double>(mu)); }

// (1 + ed2) / (1 + ed1) - 1: positive is ringing (artifact), negative is
// blurring (detail lost).
TV_HD double edge_ratio(double ed1, double ed2) { return (1.0 + ed2) / (1.0 + ed1) - 1.0; }

// The four running sums of one channel's edge map and the two of its SSIM
// map, each one serial chain over the plane in raster order.
struct ChannelSums {
    double ssim_l1 = 0.0, ssim_l4 = 0.0;
    double art_l1 = 0.0, art_l4 = 0.0, det_l1 = 0.0, det_l4 = 0.0;
};

TV_HD void add_ssim(ChannelSums& s, double d)
{
    s.ssim_l1 += d;
    s.ssim_l4 += quartic(d);
}
// edge_diff_map's split of a ratio: ringing where positive, blurring
// (negated) where negative, 0 otherwise.
struct EdgeTerms {
    double art, det;
};
TV_HD EdgeTerms edge_terms(double d) { return {d > 0.0 ? d : 0.0, d < 0.0 ? -d : 0.0}; }

TV_HD void add_edge(ChannelSums& s, double d)
{
    const EdgeTerms e = edge_terms(d);
    s.art_l1 += e.art;
    s.art_l4 += quartic(e.art);
    s.det_l1 += e.det;
    s.det_l4 += quartic(e.det);
}

// The channel's six norms (plane_averages): the L1 means and the fourth
// roots of the L4 means.
TV_HD void channel_norms(const ChannelSums& s, unsigned width, unsigned height, double* norms)
{
    const double one_per_pixels = 1.0 / static_cast<double>(static_cast<std::uint64_t>(width) * height);
    norms[0] = one_per_pixels * s.ssim_l1;
    norms[1] = sqrt(sqrt(one_per_pixels * s.ssim_l4));
    norms[2] = one_per_pixels * s.art_l1;
    norms[3] = sqrt(sqrt(one_per_pixels * s.art_l4));
    norms[4] = one_per_pixels * s.det_l1;
    norms[5] = sqrt(sqrt(one_per_pixels * s.det_l4));
}

// ---------------------------------------------------------------- pooling

// libjxl's 108 weights (tools/ssimulacra2.cc), as the fork has them.
inline constexpr double kWeights[108] = {
        0.0, 0.0007376606707406586, 0.0, 0.0,
        0.0007793481682867309, 0.0, 0.0, 0.0004371155730107379,
        0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
        0.0, 0.0016406437456599754, 0.0, 1.8422455520539298,
        11.441172603757666, 0.0, 0.0007989109436015163, 0.000176816438078653,
        0.0, 1.8787594979546387, 10.94906990605142, 0.0,
        0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884,
        0.9981766977854967, 0.00031949755934435053, 0.0004550992113792063, 0.0,
        0.0, 0.0013648766163243398, 0.0, 0.0,
        0.0, 0.0, 0.0, 7.466890328078848,
        0.0, 17.445833984131262, 0.0006235601634041466, 0.0,
        0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
        225.20515300849274, 0.0, 0.0, 19.213238186143016,
        0.0011401524586618361, 0.001237755635509985, 176.39317598450694, 0.0,
        0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
        0.0, 0.0, 0.0, 34.77906344483772,
        44.835625328877896, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0,
        0.0, 0.0008680556573291698, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0005313191874358747,
        0.0, 0.00016533814161379112, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0004179171803251336,
        0.0017290828234722833, 0.0, 0.0020827005846636437, 0.0,
        0.0, 8.826982764996862, 23.19243343998926, 0.0,
        95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493,
        171.2667255897307, 0.9807858872435379, 0.0, 0.0,
        0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
};

}  // namespace twinvmaf::ssimulacra2

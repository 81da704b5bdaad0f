/* The C library's double and float functions on one deterministic stream of
 * arguments, their results' bits written to a file: built for x86-64 and for
 * aarch64 by tools/aarch64_libm_check.sh, which compares the two files. It
 * shows which libm calls give other bits on Arm than on x86-64 (the
 * reference), so that a score computed with one of them must use the
 * project's port of x86-64 glibc (src/core/glibc_*.h) instead. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { kArguments = 2000000 };

static uint64_t state = 12345;

/* splitmix64, as tests/glibc_live.h. */
static uint64_t next_random(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). Each argument is drawn in its own statement: the order
 * in which a call's arguments are evaluated differs between the two
 * compilers. */
static double unit(void) { return (double)(next_random() >> 11) * 0x1p-53; }

static void put_double(FILE* out, double x) { fwrite(&x, sizeof x, 1, out); }
static void put_float(FILE* out, float x) { fwrite(&x, sizeof x, 1, out); }

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
        return 2;
    }
    FILE* out = fopen(argv[1], "wb");
    if (!out) return 1;
    for (int i = 0; i < kArguments; ++i) {
        const double x = exp2(unit() * 60 - 20); /* 2^-20 .. 2^40 */
        const double e = unit() * 40 - 20;
        const double base = unit() * 4;
        const double exponent = unit() * 8 - 4;
        const double angle = unit() * 7;
        const float xf = (float)(unit() * 100);
        const float ef = (float)(unit() * 20 - 10);
        put_double(out, log10(x));
        put_double(out, log(x));
        put_double(out, log2(x));
        put_double(out, exp(e));
        put_double(out, pow(base, exponent));
        put_double(out, cos(angle));
        put_double(out, sin(angle));
        put_float(out, log2f(xf + 1e-3f));
        put_float(out, powf(xf, 1.0f / 3));
        put_float(out, expf(ef));
    }
    return fclose(out) == 0 ? 0 : 1;
}

// Chapter 14: the multiply-add roof, the other roof of Apple's guide (its
// copy roof is the table's copy). Each work-item runs CHAINS independent
// chains of multiply-adds, so the schedulers always have one ready: the
// kernel issues multiply-adds as fast as the device can, and its time gives
// the device's multiply-add rate. The sum of the chains is stored, so that
// the compiler cannot drop them.
#define CHAINS 8

__kernel void fma_roof(__global float* out, int iterations, float b, float c)
{
    const int id = get_global_id(0);
    float a[CHAINS];
    for (int k = 0; k < CHAINS; ++k) {
        a[k] = (float)(id + k);
    }
    for (int i = 0; i < iterations; ++i) {
        for (int k = 0; k < CHAINS; ++k) {
            a[k] = fma(a[k], b, c);
        }
    }
    float sum = 0.0f;
    for (int k = 0; k < CHAINS; ++k) {
        sum += a[k];
    }
    out[id] = sum;
}

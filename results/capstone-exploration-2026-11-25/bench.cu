// Issue 14 exploration bench (standalone): copies, the capstone baseline and
// packed-half blur kernels at 6720x4480, gray and RGBA, on rotating buffers.
//   ./bench            correctness + timings + copy size sweep
//   ./bench ncu        each profiled kernel once (for ncu)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "baseline.cuh"
#include "h2strip.cuh"

#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

// ---------------------------------------------------------------- copies
// MODE 0: plain loads/stores; 1: ld.global.nc (__ldg); 2: __ldcs + __stcs.
template <int MODE>
__device__ __forceinline__ uint4 ld(const uint4* p) {
  if constexpr (MODE == 1) return __ldg(p);
  if constexpr (MODE == 2) return __ldcs(p);
  return *p;
}
template <int MODE>
__device__ __forceinline__ void st(uint4* p, uint4 v) {
  if constexpr (MODE == 2)
    __stcs(p, v);
  else
    *p = v;
}
// K uint4 per thread, block of 256 covers 256*K consecutive uint4.
template <int K, int MODE>
__global__ void __launch_bounds__(256) copy_k(const uint4* __restrict__ in, uint4* __restrict__ out, size_t n16) {
  const size_t base = static_cast<size_t>(blockIdx.x) * 256 * K + threadIdx.x;
  uint4 v[K];
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (base + k * 256 < n16) v[k] = ld<MODE>(in + base + k * 256);
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (base + k * 256 < n16) st<MODE>(out + base + k * 256, v[k]);
}
// Grid-stride persistent: K uint4 per thread per step.
template <int K, int MODE>
__global__ void __launch_bounds__(256) copy_gs(const uint4* __restrict__ in, uint4* __restrict__ out, size_t n16) {
  const size_t stride = static_cast<size_t>(gridDim.x) * 256 * K;
  for (size_t base = static_cast<size_t>(blockIdx.x) * 256 * K + threadIdx.x; base < n16; base += stride) {
    uint4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (base + k * 256 < n16) v[k] = ld<MODE>(in + base + k * 256);
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (base + k * 256 < n16) st<MODE>(out + base + k * 256, v[k]);
  }
}

static int g_sms = 132;
using CopyFn = std::function<void(const void*, void*, size_t, cudaStream_t)>;
struct CopyVariant {
  const char* name;
  CopyFn fn;
};
template <int K, int MODE>
CopyFn copy_fn() {
  return [](const void* i, void* o, size_t bytes, cudaStream_t s) {
    const size_t n16 = bytes / 16;
    const unsigned blocks = static_cast<unsigned>((n16 + 256 * K - 1) / (256 * K));
    copy_k<K, MODE><<<blocks, 256, 0, s>>>(static_cast<const uint4*>(i), static_cast<uint4*>(o), n16);
  };
}
template <int K, int MODE, int PER_SM>
CopyFn copy_gs_fn() {
  return [](const void* i, void* o, size_t bytes, cudaStream_t s) {
    const size_t n16 = bytes / 16;
    copy_gs<K, MODE><<<g_sms * PER_SM, 256, 0, s>>>(static_cast<const uint4*>(i), static_cast<uint4*>(o), n16);
  };
}
static std::vector<CopyVariant> copy_variants() {
  return {
      {"copy 1xuint4/thread (project)", copy_fn<1, 0>()},
      {"copy 1xuint4 ldg(nc)", copy_fn<1, 1>()},
      {"copy 1xuint4 ldcs/stcs", copy_fn<1, 2>()},
      {"copy 2xuint4/thread", copy_fn<2, 0>()},
      {"copy 2xuint4 ldcs/stcs", copy_fn<2, 2>()},
      {"copy 4xuint4/thread", copy_fn<4, 0>()},
      {"copy 4xuint4 ldg(nc)", copy_fn<4, 1>()},
      {"copy 4xuint4 ldcs/stcs", copy_fn<4, 2>()},
      {"copy gridstride 2x, 8 blk/SM", copy_gs_fn<2, 0, 8>()},
      {"copy gridstride 4x, 4 blk/SM", copy_gs_fn<4, 0, 4>()},
      {"copy gridstride 4x cs, 4 blk/SM", copy_gs_fn<4, 2, 4>()},
      {"cudaMemcpyAsync D2D",
       [](const void* i, void* o, size_t b, cudaStream_t s) { CK(cudaMemcpyAsync(o, i, b, cudaMemcpyDeviceToDevice, s)); }},
  };
}

// ---------------------------------------------------------------- blurs
struct Geometry {
  int w, h, c, pitch;
};
using BlurFn = std::function<void(const std::uint8_t*, std::uint8_t*, const Geometry&, cudaStream_t)>;
struct BlurVariant {
  std::string name;
  int channels;
  BlurFn fn;
  std::string note;
};

static gauss::GaussTaps g_taps;
static H2W g_h2w;

template <int C, int PX, int ROWS, int AHEAD, int MINB>
BlurFn base_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    constexpr int R = 2;
    constexpr int kHalo = (R + PX - 1) / PX;
    const int strip = (32 - 2 * kHalo) * PX;
    const dim3 block(32, 4);
    const dim3 grid((g.w + strip - 1) / strip, (g.h + ROWS * 4 - 1) / (ROWS * 4));
    const bool aligned = g.pitch % (PX * C) == 0 && reinterpret_cast<std::uintptr_t>(in) % (PX * C) == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % (PX * C) == 0;
    base::blur_warp_strip<C, R, PX, ROWS, AHEAD, MINB><<<grid, block, 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, g_taps);
  };
}
template <int C, int ROWS, int AHEAD, int MINB, int WARPS>
BlurFn h2_8_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    const dim3 block(32, WARPS);
    const dim3 grid((g.w * C + 239) / 240, (g.h + ROWS * WARPS - 1) / (ROWS * WARPS));
    const bool aligned = g.pitch % 8 == 0 && reinterpret_cast<std::uintptr_t>(in) % 8 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 8 == 0;
    h2fast8<C, ROWS, AHEAD, MINB, WARPS><<<grid, block, 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, g_h2w);
  };
}
template <int C, int ROWS, int AHEAD, int MINB, int WARPS, bool STCS, bool FAST = false>
BlurFn h2_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    const dim3 block(32, WARPS);
    const dim3 grid((g.w * C + 479) / 480, (g.h + ROWS * WARPS - 1) / (ROWS * WARPS));
    const bool aligned = g.pitch % 16 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    if constexpr (FAST)
      h2fast<C, ROWS, AHEAD, MINB, WARPS, STCS><<<grid, block, 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, g_h2w);
    else
      h2strip<C, ROWS, AHEAD, MINB, WARPS, STCS><<<grid, block, 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, g_h2w);
  };
}

// A later bench adds its kernels here (see ../capstone-exploration-2026-11-26).
#ifdef BENCH_EXTRA
#include BENCH_EXTRA
#endif

static std::vector<BlurVariant> blur_variants() {
  std::vector<BlurVariant> v = {
      {"base f32 8px 8rows 4ahead (capstone)", 1, base_fn<1, 8, 8, 4, 4>(), "project's shipped gray shape"},
      {"h2 16rows a4 mb4 w4 (v1, inline edges)", 1, h2_fn<1, 16, 4, 4, 4, false>(), ""},
      {"h2fast 8rows a4 mb4 w4", 1, h2_fn<1, 8, 4, 4, 4, false, true>(), ""},
      {"h2fast 12rows a4 mb4 w4", 1, h2_fn<1, 12, 4, 4, 4, false, true>(), ""},
      {"h2fast8 8rows a4 mb6 w4", 1, h2_8_fn<1, 8, 4, 6, 4>(), ""},
      {"h2fast8 16rows a4 mb6 w4", 1, h2_8_fn<1, 16, 4, 6, 4>(), ""},
      {"h2fast8 8rows a4 mb8 w4", 1, h2_8_fn<1, 8, 4, 8, 4>(), ""},
      {"h2fast8 16rows a4 mb8 w4", 1, h2_8_fn<1, 16, 4, 8, 4>(), ""},
      {"h2fast8 16rows a6 mb6 w4", 1, h2_8_fn<1, 16, 6, 6, 4>(), ""},
      {"h2fast8 32rows a4 mb8 w4", 1, h2_8_fn<1, 32, 4, 8, 4>(), ""},
      {"base f32 rgba 4px 16rows 6ahead (capstone)", 4, base_fn<4, 4, 16, 6, 4>(), "project's shipped RGBA shape"},
      {"h2fast rgba 8rows a4 mb4 w4", 4, h2_fn<4, 8, 4, 4, 4, false, true>(), ""},
      {"h2fast rgba 16rows a4 mb4 w4", 4, h2_fn<4, 16, 4, 4, 4, false, true>(), ""},
      {"h2fast8 rgba 8rows a4 mb6 w4", 4, h2_8_fn<4, 8, 4, 6, 4>(), ""},
      {"h2fast8 rgba 16rows a4 mb6 w4", 4, h2_8_fn<4, 16, 4, 6, 4>(), ""},
      {"h2fast8 rgba 16rows a4 mb8 w4", 4, h2_8_fn<4, 16, 4, 8, 4>(), ""},
      {"h2fast8 rgba 16rows a6 mb6 w4", 4, h2_8_fn<4, 16, 6, 6, 4>(), ""},
  };
#ifdef BENCH_EXTRA
  if (std::getenv("BENCH_ONLY_EXTRA")) v.clear();
  for (auto& e : extra_blur_variants()) v.push_back(e);
  if (const char* match = std::getenv("BENCH_MATCH")) {  // keep the names holding one of these ','-separated words
    std::vector<BlurVariant> kept;
    for (auto& b : v) {
      std::string words = match;
      for (std::size_t at = 0; at <= words.size();) {
        const std::size_t end = std::min(words.find(',', at), words.size());
        if (end > at && b.name.find(words.substr(at, end - at)) != std::string::npos) {
          kept.push_back(b);
          break;
        }
        at = end + 1;
      }
    }
    v = kept;
  }
#endif
  return v;
}

// ---------------------------------------------------------------- host reference
struct Img {
  int w = 0, h = 0, c = 0;
  std::vector<std::uint8_t> px;
};
static std::vector<double> weights1d() {
  std::vector<double> w(5);
  double sum = 0;
  for (int k = -2; k <= 2; ++k) sum += (w[k + 2] = std::exp(-(k * k) / 2.0));
  for (double& x : w) x /= sum;
  return w;
}
// Separable in double (horizontal then vertical), clamp to edge, floor(s + 0.5).
static Img reference(const Img& in) {
  const std::vector<double> w = weights1d();
  Img out = in;
  const int bc = in.c == 4 ? 3 : in.c;
  std::vector<double> hor(static_cast<size_t>(in.w) * in.h * bc);
  for (int y = 0; y < in.h; ++y)
    for (int x = 0; x < in.w; ++x)
      for (int c = 0; c < bc; ++c) {
        double s = 0;
        for (int k = -2; k <= 2; ++k) {
          const int xx = std::clamp(x + k, 0, in.w - 1);
          s += w[k + 2] * in.px[(static_cast<size_t>(y) * in.w + xx) * in.c + c];
        }
        hor[(static_cast<size_t>(y) * in.w + x) * bc + c] = s;
      }
  for (int y = 0; y < in.h; ++y)
    for (int x = 0; x < in.w; ++x)
      for (int c = 0; c < bc; ++c) {
        double s = 0;
        for (int k = -2; k <= 2; ++k) {
          const int yy = std::clamp(y + k, 0, in.h - 1);
          s += w[k + 2] * hor[(static_cast<size_t>(yy) * in.w + x) * bc + c];
        }
        out.px[(static_cast<size_t>(y) * in.w + x) * in.c + c] =
            static_cast<std::uint8_t>(std::clamp(std::floor(s + 0.5), 0.0, 255.0));
      }
  return out;
}

static Img load_png(const char* path, int c) {
  int w, h, n;
  std::uint8_t* data = stbi_load(path, &w, &h, &n, c);
  if (!data) {
    std::fprintf(stderr, "cannot load %s\n", path);
    std::exit(1);
  }
  Img img{w, h, c, std::vector<std::uint8_t>(data, data + static_cast<size_t>(w) * h * c)};
  stbi_image_free(data);
  if (c == 4)  // give alpha a pattern, so that carrying it is checked
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) img.px[(static_cast<size_t>(y) * w + x) * 4 + 3] = static_cast<std::uint8_t>((x * 7) ^ (y * 3));
  return img;
}
// Mirror-tiled crop of a photo to any size (real-photo statistics everywhere).
static Img tile(const Img& src, int w, int h, int ox = 0, int oy = 0) {
  Img img{w, h, src.c, std::vector<std::uint8_t>(static_cast<size_t>(w) * h * src.c)};
  for (int y = 0; y < h; ++y) {
    int sy = (y + oy) % (2 * src.h);
    if (sy >= src.h) sy = 2 * src.h - 1 - sy;
    for (int x = 0; x < w; ++x) {
      int sx = (x + ox) % (2 * src.w);
      if (sx >= src.w) sx = 2 * src.w - 1 - sx;
      std::memcpy(&img.px[(static_cast<size_t>(y) * w + x) * src.c], &src.px[(static_cast<size_t>(sy) * src.w + sx) * src.c], src.c);
    }
  }
  return img;
}
static Img synthetic(int w, int h, int c, int kind, unsigned seed) {
  Img img{w, h, c, std::vector<std::uint8_t>(static_cast<size_t>(w) * h * c)};
  unsigned s = seed;
  for (size_t i = 0; i < img.px.size(); ++i) {
    s = s * 1664525u + 1013904223u;
    const size_t p = i / c;
    const int x = static_cast<int>(p % w), y = static_cast<int>(p / w);
    std::uint8_t v;
    if (kind == 0) v = static_cast<std::uint8_t>(s >> 24);                        // noise
    else if (kind == 1) v = ((x + y) & 1) ? 255 : 0;                            // checkerboard
    else if (kind == 2) v = 255;                                                // all white
    else v = ((x / 2 + y / 3) & 1) ? 255 : static_cast<std::uint8_t>(s >> 30);  // hard edges
    img.px[i] = v;
  }
  return img;
}

// ---------------------------------------------------------------- timing
static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}
// Times launch(k) for rotating buffer k, warm-up then reps, one event pair each.
static double time_median(const std::function<void(int)>& launch, int nbuf, int reps = 41, int warm = 6) {
  static cudaEvent_t ev[2 * 64];
  static bool init = false;
  if (!init) {
    for (auto& e : ev) CK(cudaEventCreate(&e));
    init = true;
  }
  for (int i = 0; i < warm; ++i) launch(i % nbuf);
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(ev[2 * (i % 64)]));
    launch((warm + i) % nbuf);
    CK(cudaEventRecord(ev[2 * (i % 64) + 1]));
    if (i % 64 == 63 || i == reps - 1) {
      CK(cudaDeviceSynchronize());
      for (int k = i - i % 64; k <= i; ++k) {
        float ms;
        CK(cudaEventElapsedTime(&ms, ev[2 * (k % 64)], ev[2 * (k % 64) + 1]));
        t.push_back(ms);
      }
    }
  }
  CK(cudaGetLastError());
  return median(t);
}

struct Pool {
  std::uint8_t* base = nullptr;
  size_t bytes = 0;
};

int main(int argc, char** argv) {
  const bool ncu_mode = argc > 1 && std::string(argv[1]) == "ncu";
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  int mem_khz = 0, bus_bits = 0, l2 = 0, drv = 0, rt = 0;
  CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
  CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  const double peak = 2.0 * mem_khz * 1e3 * bus_bits / 8.0;  // bytes/s, DDR
  std::printf("device %s, %d SMs, L2 %d MB, mem clock %d kHz, bus %d bits -> peak DRAM %.3f TB/s; driver %d runtime %d\n",
              prop.name, g_sms, l2 >> 20, mem_khz, bus_bits, peak / 1e12, drv, rt);

  {  // weights
    const std::vector<double> w = weights1d();
    for (int k = 0; k < 5; ++k) g_taps.w[k] = static_cast<float>(w[k]);
    // Half weights (searched offline: sum exactly 1, 1024(w0+w1+w2) = 718 exact,
    // smallest 2-D quantisation error): 0.054443359375, 0.244384765625, 0.40234375.
    const std::uint32_t W0 = 0x2af8, W1 = 0x33d2, W2 = 0x3670, NK = 0xe19c;  // NK = -718
    const double hw0 = 0.054443359375, hw1 = 0.244384765625, hw2 = 0.40234375;
    if (2 * hw0 + 2 * hw1 + hw2 != 1.0 || 1024 * (hw0 + hw1 + hw2) != 718.0) {
      std::fprintf(stderr, "half weights inconsistent\n");
      return 1;
    }
    g_h2w.w0e = W0 | W0 << 16;
    g_h2w.w1e = W1 | W1 << 16;
    g_h2w.w2e = W2 | W2 << 16;
    g_h2w.nke = NK | NK << 16;
    // RGBA odd pair = (B, A): A half has taps (0, 0, 1) and K = 1024 (0xe400 = -1024).
    g_h2w.w0o = W0;
    g_h2w.w1o = W1;
    g_h2w.w2o = W2 | 0x3c00u << 16;
    g_h2w.nko = NK | 0xe400u << 16;
  }

  const int W = 6720, H = 4480;
  const size_t gray_bytes = static_cast<size_t>(W) * H, rgba_bytes = gray_bytes * 4;
  Pool pool;
  pool.bytes = size_t{3} << 30;
  CK(cudaMalloc(&pool.base, pool.bytes));
  cudaStream_t s0 = 0;

  // Photos: camera (gray), astronaut (RGBA with patterned alpha), chelsea.
  const Img camera = load_png("camera.png", 1), astro1 = load_png("astronaut.png", 1),
            astro4 = load_png("astronaut.png", 4), chelsea1 = load_png("chelsea.png", 1),
            chelsea4 = load_png("chelsea.png", 4);
  const Img big1 = tile(camera, W, H), big4 = tile(astro4, W, H);

  auto blurs = blur_variants();

  if (ncu_mode) {
    // Profile targets, once each on the big image: project copy, best copies, baseline, h2 kernels.
    std::uint8_t* in = pool.base;
    std::uint8_t* out = pool.base + (size_t{512} << 20);
    CK(cudaMemcpy(in, big1.px.data(), gray_bytes, cudaMemcpyHostToDevice));
    auto cv = copy_variants();
    for (int i : {0, 5, 9}) cv[i].fn(in, out, gray_bytes, s0);
    for (auto& b : blurs)
      if (b.channels == 1) b.fn(in, out, Geometry{W, H, 1, W}, s0);
    CK(cudaMemcpy(in, big4.px.data(), rgba_bytes, cudaMemcpyHostToDevice));
    for (int i : {0, 5, 9}) cv[i].fn(in, out, rgba_bytes, s0);
    for (auto& b : blurs)
      if (b.channels == 4) b.fn(in, out, Geometry{W, H, 4, W * 4}, s0);
    CK(cudaDeviceSynchronize());
    std::printf("ncu mode done\n");
    return 0;
  }

  // ------------------------------------------------ correctness
  struct Case {
    std::string name;
    Img img;
  };
  std::vector<Case> cases1, cases4;
  cases1.push_back({"camera 512x512", camera});
  cases1.push_back({"astronaut(gray) 512x512", astro1});
  cases1.push_back({"chelsea(gray) 451x300", chelsea1});
  cases4.push_back({"astronaut rgba 512x512", astro4});
  cases4.push_back({"chelsea rgba 451x300", chelsea4});
  const int sizes[][2] = {{1, 1}, {37, 23}, {451, 300}, {1023, 769}, {33, 7}, {3, 1000}, {961, 5}, {6721, 37}, {480, 64}, {1920, 1080}};
  int seed = 1;
  for (auto& sz : sizes) {
    cases1.push_back({"camera tile " + std::to_string(sz[0]) + "x" + std::to_string(sz[1]), tile(camera, sz[0], sz[1], 17, 5)});
    cases4.push_back({"astronaut tile " + std::to_string(sz[0]) + "x" + std::to_string(sz[1]), tile(astro4, sz[0], sz[1], 3, 11)});
  }
  for (int kind = 0; kind < 4; ++kind) {
    cases1.push_back({"synthetic" + std::to_string(kind) + " 1023x769", synthetic(1023, 769, 1, kind, seed++)});
    cases4.push_back({"synthetic" + std::to_string(kind) + " 451x300", synthetic(451, 300, 4, kind, seed++)});
    cases1.push_back({"synthetic" + std::to_string(kind) + " 960x64", synthetic(960, 64, 1, kind, seed++)});
  }
  cases1.push_back({"camera tiled 6720x4480", big1});
  cases4.push_back({"astronaut tiled 6720x4480", big4});
  std::vector<Img> refs1, refs4;
  for (auto& c : cases1) refs1.push_back(reference(c.img));
  for (auto& c : cases4) refs4.push_back(reference(c.img));

  std::printf("\n== correctness (poisoned 0xA5 and 0x5A; max diff vs double reference; count > 1) ==\n");
  std::vector<bool> ok(blurs.size(), true);
  std::uint8_t* din = pool.base;
  std::uint8_t* dout = pool.base + (size_t{512} << 20);
  for (size_t v = 0; v < blurs.size(); ++v) {
    auto& cases = blurs[v].channels == 1 ? cases1 : cases4;
    auto& refs = blurs[v].channels == 1 ? refs1 : refs4;
    int worst = 0;
    size_t over = 0, ones = 0, total = 0;
    std::string worst_case;
    for (size_t k = 0; k < cases.size(); ++k) {
      const Img& img = cases[k].img;
      const size_t bytes = img.px.size();
      CK(cudaMemcpy(din, img.px.data(), bytes, cudaMemcpyHostToDevice));
      for (int poison : {0xA5, 0x5A}) {
        CK(cudaMemset(dout, poison, bytes + 4096));
        blurs[v].fn(din, dout, Geometry{img.w, img.h, img.c, img.w * img.c}, s0);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<std::uint8_t> got(bytes + 4096);
        CK(cudaMemcpy(got.data(), dout, bytes + 4096, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < bytes; ++i) {
          const int d = std::abs(int(got[i]) - int(refs[k].px[i]));
          if (d > worst) {
            worst = d;
            worst_case = cases[k].name;
          }
          over += d > 1;
          ones += d == 1;
        }
        total += bytes;
        for (size_t i = bytes; i < bytes + 4096; ++i)
          if (got[i] != poison) {
            ++over;
            worst_case = cases[k].name + " (wrote past the end)";
            break;
          }
      }
    }
    ok[v] = over == 0;
    std::printf("%-45s max diff %d, >1: %zu, ==1: %zu of %zu (%s) worst in %s\n", blurs[v].name.c_str(), worst, over, ones,
                total, ok[v] ? "PASS" : "FAIL", worst_case.c_str());
  }

  // ------------------------------------------------ timings at 6720x4480
  auto buffers_for = [&](size_t bytes) {
    // enough pairs that together they are >= 4x L2, at least 6
    const size_t pairs_needed = std::max<size_t>(6, (4 * size_t(l2) + 2 * bytes - 1) / (2 * bytes));
    const size_t stride = (bytes + 4095) / 4096 * 4096;
    const size_t pairs = std::min(pairs_needed, pool.bytes / (2 * stride));
    return std::make_pair(pairs, stride);
  };
  struct Row {
    std::string name;
    double ms;
    double tbs;
  };
  auto run_copies = [&](size_t bytes, std::vector<Row>& rows) {
    auto [pairs, stride] = buffers_for(bytes);
    CK(cudaMemset(pool.base, 0x3C, pairs * 2 * stride));
    for (auto& c : copy_variants()) {
      const double ms = time_median(
          [&](int k) { c.fn(pool.base + 2 * k * stride, pool.base + (2 * k + 1) * stride, bytes, s0); }, static_cast<int>(pairs));
      rows.push_back({c.name, ms, 2.0 * bytes / (ms * 1e-3) / 1e12});
    }
    return pairs;
  };

  double best_copy[2] = {0, 0};
  std::vector<Row> copy_rows[2];
  for (int ci = 0; ci < 2; ++ci) {
    const size_t bytes = ci == 0 ? gray_bytes : rgba_bytes;
    const size_t pairs = run_copies(bytes, copy_rows[ci]);
    std::printf("\n== copies of the %s image bytes (%.1f MB), %zu rotating pairs, median of 41 ==\n", ci ? "RGBA" : "gray",
                bytes / 1e6, pairs);
    for (auto& r : copy_rows[ci]) {
      std::printf("%-36s %8.4f ms %6.3f TB/s  %5.1f%% of peak DRAM\n", r.name.c_str(), r.ms, r.tbs, 100 * r.tbs * 1e12 / peak);
      best_copy[ci] = std::max(best_copy[ci], r.tbs);
    }
  }

  std::printf("\n== blurs at 6720x4480 ==\n");
  std::vector<Row> blur_rows;
  for (size_t v = 0; v < blurs.size(); ++v) {
    const int c = blurs[v].channels;
    const size_t bytes = c == 1 ? gray_bytes : rgba_bytes;
    const Img& big = c == 1 ? big1 : big4;
    auto [pairs, stride] = buffers_for(bytes);
    for (size_t k = 0; k < pairs; ++k) CK(cudaMemcpy(pool.base + 2 * k * stride, big.px.data(), bytes, cudaMemcpyHostToDevice));
    const Geometry g{W, H, c, W * c};
    const double ms = time_median(
        [&](int k) { blurs[v].fn(pool.base + 2 * k * stride, pool.base + (2 * k + 1) * stride, g, s0); }, static_cast<int>(pairs));
    const double tbs = 2.0 * bytes / (ms * 1e-3) / 1e12;
    blur_rows.push_back({blurs[v].name, ms, tbs});
    std::printf("%-45s %8.4f ms %6.3f TB/s %5.1f%% of best copy %5.1f%% of peak %s\n", blurs[v].name.c_str(), ms, tbs,
                100 * tbs / best_copy[c == 1 ? 0 : 1], 100 * tbs * 1e12 / peak, ok[v] ? "" : "(FAILED CHECK)");
  }

  std::printf("\n== best copy by size (gray bytes, MP = 1e6 bytes) ==\n");
  std::vector<std::pair<int, Row>> sweep;
  for (int mp : {1, 4, 16, 30, 64, 100}) {
    const size_t bytes = size_t(mp) * 1000000 / 16 * 16;
    std::vector<Row> rows;
    const size_t pairs = run_copies(bytes, rows);
    Row best = *std::max_element(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.tbs < b.tbs; });
    std::printf("%4d MP (%zu pairs): best %-34s %8.4f ms %6.3f TB/s %5.1f%% of peak; project copy %6.3f TB/s\n", mp, pairs,
                best.name.c_str(), best.ms, best.tbs, 100 * best.tbs * 1e12 / peak, rows[0].tbs);
  }

  std::printf("\n== SUMMARY (6720x4480; peak DRAM %.3f TB/s) ==\n", peak / 1e12);
  std::printf("best copy gray %.3f TB/s (%.1f%% of peak), RGBA %.3f TB/s (%.1f%%)\n", best_copy[0], 100 * best_copy[0] * 1e12 / peak,
              best_copy[1], 100 * best_copy[1] * 1e12 / peak);
  for (size_t v = 0; v < blurs.size(); ++v)
    std::printf("%-45s %8.4f ms %5.1f%% of best copy %s\n", blur_rows[v].name.c_str(), blur_rows[v].ms,
                100 * blur_rows[v].tbs / best_copy[blurs[v].channels == 1 ? 0 : 1], ok[v] ? "ok" : "FAIL");
  CK(cudaFree(pool.base));
  return 0;
}

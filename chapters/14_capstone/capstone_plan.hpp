// Chapter 14: the capstone kernel's knobs (blur_capstone.cu, .cl), shared by
// the CUDA launcher and the OpenCL set-up: the shipped build (chapter 13's
// block tiles with every technique of the climb), the ablation's list of what
// can be taken out of it, and the overlap candidate (each warp streaming its
// strip, its next rows in flight) with the shapes it was measured in.
#pragma once

namespace capstone {

/// Warps (rows of 32 lanes) per block or work-group. Each warp works on its
/// own: blocks only package warps for the launch, no barrier joins them.
constexpr int kWarpsPerBlock = 4;

/// Input rows per stage: the ring of five rows in registers (radius 2) turns
/// once per stage, so every ring index in the unrolled stage is a constant.
constexpr int kStageRows = 5;

/// The knobs of one build of the kernel. The shipped build has every
/// technique on; the ablation turns one off at a time.
struct Knobs {
  bool tiles;      ///< block tiles (the capstone: chapter 13's fill) or streaming segments (the overlap candidate)
  int lane_bytes;  ///< bytes per lane and row: 16 (one 16-byte copy and store) or 8
  int rows;        ///< tiles: output rows per warp (a block's tile holds 4 x rows + 4 rows)
  int segment;     ///< streaming: output rows a warp walks down its strip; its 4 halo rows read once per segment
  int stages;      ///< streaming: stages of 5 rows in flight per warp (1: the copy waits for the arithmetic)
  int min_blocks;  ///< blocks per SM that __launch_bounds__ must leave registers for (1: no floor)
  bool halves;     ///< packed half arithmetic (else float, every value in its own register)
  bool permutes;   ///< bytes unpacked and packed by byte permutes (else shifts, masks and conversions)
  bool shuffles;   ///< neighbours' vertical sums by warp shuffle (else each lane sums them itself)
  bool ring;       ///< the last five rows kept unpacked in registers (else re-read and re-unpacked per row)
  bool one_in_flight = false;  ///< tiles: each cp.async waited for before the next (the ablation)
  int radius = 2;              ///< taps each side: 2 (radius 1 as 2), or 3 .. 5 (tiles, packed halves, ring, shuffles)
};

/// The capstone's kernel as shipped: chapter 13's block tiles, 4 x rows + 4
/// rows brought into shared memory at once by cp.async, with every technique
/// of the climb on, in chapter 13's shapes (tile_plan.hpp). CUDA: gray 8-byte
/// lanes, 8 rows per warp, 8 blocks per SM; RGBA 16-byte lanes, 8 rows, 4
/// blocks per SM. OpenCL: 16-byte lanes, 4 rows (gray) and 8 (RGBA).
constexpr Knobs shipped(int channels, bool opencl = false) {
  if (opencl)
    return channels == 4 ? Knobs{true, 16, 8, 0, 0, 8, true, true, true, true}
                         : Knobs{true, 16, 4, 0, 0, 6, true, true, true, true};
  return channels == 4 ? Knobs{true, 16, 8, 0, 0, 4, true, true, true, true}
                       : Knobs{true, 8, 8, 0, 0, 8, true, true, true, true};
}

/// The shipped kernel for a wider blur, radius 3 up to wide_max_radius: the
/// same tile with 2 x radius halo rows and a ring of 2 x radius + 1 rows.
/// CUDA asks for fewer blocks per SM where the ring would not fit the
/// registers without spilling (ptxas -v): RGBA radius 4 (9 rows of 8 pairs,
/// 150 registers at 12 rows) 3 blocks, gray radius 5 (11 rows of 4 pairs) 6;
/// and for more where they fit: RGBA radius 3 at 5 blocks keeps its ring of
/// 7 rows in 95 registers (123 at 4 blocks), 0.0867-0.0872 -> 0.0848-0.0849
/// ms on the H200 (three runs each; 3 blocks 0.0948-0.0952).
/// Each warp sums its rows and their 2 x radius halo rows horizontally, so
/// taller warps pay less for the halo as the radius grows: OpenCL gray takes
/// 8 rows (its radius-2 tile has 4: at radius 3 each warp summed 10 rows for
/// 4, then 14 for 8), CUDA RGBA at radius 4 takes 12. On the H200, same run,
/// two runs each: OpenCL gray 4 -> 8 rows 0.0278-0.0281 -> 0.0255 ms at
/// radius 3, 0.0322-0.0323 -> 0.0303-0.0304 at 4, 0.0368 -> 0.0327-0.0328 at
/// 5; CUDA RGBA at 4, 8 -> 12 rows 0.112-0.113 -> 0.107. Other heights lost
/// or tied: CUDA gray 12 and 16 rows at 3-5, CUDA RGBA 12 and 16 at 3 and
/// 16 at 4; OpenCL RGBA 10 rows 2% faster at 3 and 4 than its 8; CUDA
/// RGBA 10 rows at 3, 1.01x (6: 1.09x slower).
constexpr Knobs wide(int channels, int radius, bool opencl = false) {
  Knobs k = shipped(channels, opencl);
  k.radius = radius;
  if (!opencl && channels == 4) k.min_blocks = radius == 3 ? 5 : 3;
  if (!opencl && channels == 1 && radius >= 5) k.min_blocks = 6;
  if (opencl && channels == 1) k.rows = 8;
  if (!opencl && channels == 4 && radius == 4) k.rows = 12;
  return k;
}

/// The tile `main` runs for a blur of @p radius in packed halves: the shipped
/// one to radius 2 (radius 1 as 2), the wider blur's above.
constexpr Knobs main_knobs(int channels, int radius, bool opencl = false) {
  return radius >= 3 ? wide(channels, radius, opencl) : shipped(channels, opencl);
}

/// The widest radius the shipped tile sums for @p channels: a lane takes its
/// neighbours' pairs from the next lane only, 2 x radius pairs for RGBA (8
/// in a 16-byte lane: radius 4), (radius + 1) / 2 for gray.
constexpr int wide_max_radius(int channels) { return channels == 4 ? 4 : 5; }

/// The overlap candidate: each warp streams a segment of its strip, its next
/// rows on their way by cp.async while it computes (blur_overlap's streaming
/// kernel), in its best measured shape: 16-row segments, three stages.
constexpr Knobs streaming(int /*channels*/) { return {false, 16, 0, 16, 3, 6, true, true, true, true}; }

/// Output rows per segment must leave whole stages: segment + 4 = 5 k.
constexpr bool whole_stages(int segment) { return (segment + 4) % kStageRows == 0; }
static_assert(whole_stages(streaming(1).segment), "segments of whole stages");

/// What the ablation takes out of the shipped kernel, one at a time, and the
/// chapter that taught it.
enum class Ablation {
  Shipped,
  OneLoadInFlight,  ///< each thread waits for each 16-byte copy before the next (03, 12)
  NoHalves,         ///< float arithmetic (11)
  NoPermutes,       ///< bytes to halves by conversion instructions, not byte permutes (10, 11)
  NoShuffles,       ///< each lane sums its neighbours' pixels itself (09, 10)
  NoRing,           ///< the five rows re-read from shared memory for every output row (10)
  NarrowLanes,      ///< 8 bytes per lane (03); where 16 ship (not CUDA's gray)
  OneRowPerWarp,    ///< one output row per warp: 4 tile rows of halo per 4 output rows (02, 13)
  NoLaunchBounds,   ///< no blocks-per-SM floor for the register allocator (02)
  Count
};

constexpr Knobs ablated(int channels, Ablation which, bool opencl = false) {
  Knobs k = shipped(channels, opencl);
  switch (which) {
    case Ablation::OneLoadInFlight:
      k.one_in_flight = true;
      break;
    case Ablation::NoHalves:
      k.halves = false;
      break;
    case Ablation::NoPermutes:
      k.permutes = false;
      break;
    case Ablation::NoShuffles:
      k.shuffles = false;
      break;
    case Ablation::NoRing:
      k.ring = false;
      break;
    case Ablation::NarrowLanes:
      k.lane_bytes = 8;
      break;
    case Ablation::OneRowPerWarp:
      k.rows = 1;
      break;
    case Ablation::NoLaunchBounds:
      k.min_blocks = 1;
      break;
    default:
      break;
  }
  return k;
}

constexpr const char* ablation_name(Ablation which) {
  switch (which) {
    case Ablation::Shipped:
      return "as shipped";
    case Ablation::OneLoadInFlight:
      return "one load in flight per thread (03, 12)";
    case Ablation::NoHalves:
      return "no packed halves: floats (11)";
    case Ablation::NoPermutes:
      return "no byte permutes: conversions (10, 11)";
    case Ablation::NoShuffles:
      return "no shuffles: each lane sums its neighbours (09, 10)";
    case Ablation::NoRing:
      return "no ring: rows re-read for every output row (10)";
    case Ablation::NarrowLanes:
      return "8-byte lanes (03)";
    case Ablation::OneRowPerWarp:
      return "one output row per warp (02, 13)";
    case Ablation::NoLaunchBounds:
      return "no launch bounds (02)";
    default:
      return "?";
  }
}

/// Whether @p which changes the shipped kernel of @p channels (CUDA's gray ships 8-byte lanes).
constexpr bool applies(int channels, Ablation which, bool opencl = false) {
  return which != Ablation::NarrowLanes || shipped(channels, opencl).lane_bytes == 16;
}

/// The shapes of the streaming candidate the section `overlap_shapes`
/// compares: lane bytes, segment rows, stages in flight, blocks per SM.
struct ShapeChoice {
  const char* name;
  int lane_bytes, segment, stages, min_blocks;
};
constexpr ShapeChoice kShapes[] = {
    {"16 B, 16 rows, 3 stages, 6 blocks/SM (the candidate)", 16, 16, 3, 6},
    {"16 B, 16 rows, 2 stages, 6 blocks/SM", 16, 16, 2, 6},
    {"16 B, 16 rows, 1 stage (no overlap), 6 blocks/SM", 16, 16, 1, 6},
    {"16 B, 16 rows, 3 stages, 8 blocks/SM", 16, 16, 3, 8},
    {"16 B, 26 rows, 3 stages, 6 blocks/SM", 16, 26, 3, 6},
    {"16 B, 36 rows, 3 stages, 6 blocks/SM", 16, 36, 3, 6},
    {"16 B, 56 rows, 3 stages, 6 blocks/SM", 16, 56, 3, 6},
    {"8 B, 16 rows, 4 stages, 8 blocks/SM", 8, 16, 4, 8},
    {"8 B, 36 rows, 4 stages, 8 blocks/SM", 8, 36, 4, 8},
};
constexpr int kShapeCount = static_cast<int>(sizeof kShapes / sizeof kShapes[0]);

/// Shape @p index of kShapes of the streaming candidate, as knobs.
constexpr Knobs shape(int channels, int index) {
  Knobs k = streaming(channels);
  const ShapeChoice& s = kShapes[index];
  k.lane_bytes = s.lane_bytes;
  k.segment = s.segment;
  k.stages = s.stages;
  k.min_blocks = s.min_blocks;
  return k;
}

/// Strips across a row: each warp's 32 lanes load 32 x lane_bytes bytes, of
/// which its 30 inner lanes write 30 x lane_bytes.
constexpr int strips(int row_bytes, int lane_bytes) { return (row_bytes + 30 * lane_bytes - 1) / (30 * lane_bytes); }

/// Segments down a column: rows / segment, rounded up.
constexpr int segments(int height, int segment) { return (height + segment - 1) / segment; }

}  // namespace capstone

// The recursive Gaussian's coefficients and its CPU reference.
#include "gauss/deriche.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "gauss/blur.hpp"
#include "gauss/reference.hpp"

namespace gauss::deriche {

DericheCoefficients deriche_coefficients(double sigma) {
  // Deriche's fit of a Gaussian by two damped cosines (1993, for sigma = 1),
  // scaled to any sigma by dividing every rate by sigma.
  const double a0 = 1.6797292232361107;
  const double a1 = 3.7348298269103580;
  const double b0 = 1.7831906544515104;
  const double b1 = 1.7228297663338028;
  const double c0 = -0.6802783501806897;
  const double c1 = -0.2598300478959625;
  const double w0 = 0.6318113174569493;
  const double w1 = 1.9969276832487770;

  const double cos0 = std::cos(w0 / sigma);
  const double sin0 = std::sin(w0 / sigma);
  const double cos1 = std::cos(w1 / sigma);
  const double sin1 = std::sin(w1 / sigma);
  const double e0 = std::exp(-b0 / sigma);
  const double e1 = std::exp(-b1 / sigma);

  DericheCoefficients c{};
  c.n[0] = a0 + c0;
  c.n[1] = e1 * (c1 * sin1 - (c0 + 2 * a0) * cos1) + e0 * (a1 * sin0 - (2 * c0 + a0) * cos0);
  c.n[2] = 2 * e0 * e1 * ((a0 + c0) * cos1 * cos0 - cos1 * a1 * sin0 - cos0 * c1 * sin1) + c0 * e0 * e0 + a0 * e1 * e1;
  c.n[3] = e1 * e0 * e0 * (c1 * sin1 - c0 * cos1) + e0 * e1 * e1 * (a1 * sin0 - a0 * cos0);
  c.d[0] = -2 * e0 * cos0 - 2 * e1 * cos1;
  c.d[1] = 4 * cos1 * cos0 * e0 * e1 + e1 * e1 + e0 * e0;
  c.d[2] = -2 * cos0 * e0 * e1 * e1 - 2 * cos1 * e1 * e0 * e0;
  c.d[3] = e0 * e0 * e1 * e1;

  // Normalise (Farneback and Westin, eq. 25; Deriche's own eq. 50 is wrong):
  // the causal and anti-causal responses together must sum to 1.
  const double sum_n = c.n[0] + c.n[1] + c.n[2] + c.n[3];
  const double sum_d = c.d[0] + c.d[1] + c.d[2] + c.d[3];
  const double scale = 2 * sum_n / (1 + sum_d) - c.n[0];
  for (double& n : c.n) n /= scale;

  // The anti-causal feed-forward taps make the whole response symmetric.
  for (int k = 0; k < 3; ++k) c.m[k] = c.n[k + 1] - c.d[k] * c.n[0];
  c.m[3] = -c.d[3] * c.n[0];

  // Clamp-to-edge start values: a constant 1 forever before the line gives
  // y+ = sum(n) / (1 + sum(d)); after it, y- = sum(m) / (1 + sum(d)).
  const double new_sum_n = c.n[0] + c.n[1] + c.n[2] + c.n[3];
  const double sum_m = c.m[0] + c.m[1] + c.m[2] + c.m[3];
  c.causal_edge = new_sum_n / (1 + sum_d);
  c.anticausal_edge = sum_m / (1 + sum_d);
  return c;
}

DericheTaps deriche_taps(double sigma) {
  const DericheCoefficients c = deriche_coefficients(sigma);
  DericheTaps taps{};
  for (int k = 0; k < 4; ++k) {
    taps.n[k] = static_cast<float>(c.n[k]);
    taps.m[k] = static_cast<float>(c.m[k]);
    taps.d[k] = static_cast<float>(c.d[k]);
  }
  taps.causal_edge = static_cast<float>(c.causal_edge);
  taps.anticausal_edge = static_cast<float>(c.anticausal_edge);
  return taps;
}

namespace {

// The filter along one line, in place, @p forward a scratch of the same length.
// The GPU kernels do the same steps in float (recursive_gauss.cl).
void filter_line(double* line, std::size_t count, const DericheCoefficients& c, std::vector<double>& forward) {
  if (count == 0) return;
  forward.resize(count);
  // Causal pass: the history before the line is the first value, repeated.
  const double first = line[0];
  double x1 = first, x2 = first, x3 = first;
  double y1 = first * c.causal_edge, y2 = y1, y3 = y1, y4 = y1;
  for (std::size_t i = 0; i < count; ++i) {
    const double x0 = line[i];
    const double y0 =
        c.n[0] * x0 + c.n[1] * x1 + c.n[2] * x2 + c.n[3] * x3 - c.d[0] * y1 - c.d[1] * y2 - c.d[2] * y3 - c.d[3] * y4;
    forward[i] = y0;
    x3 = x2, x2 = x1, x1 = x0;
    y4 = y3, y3 = y2, y2 = y1, y1 = y0;
  }
  // Anti-causal pass: the future after the line is the last value, repeated.
  const double last = line[count - 1];
  double xa1 = last, xa2 = last, xa3 = last, xa4 = last;
  double ya1 = last * c.anticausal_edge, ya2 = ya1, ya3 = ya1, ya4 = ya1;
  for (std::size_t i = count; i-- > 0;) {
    const double y0 = c.m[0] * xa1 + c.m[1] * xa2 + c.m[2] * xa3 + c.m[3] * xa4 - c.d[0] * ya1 - c.d[1] * ya2 -
                      c.d[2] * ya3 - c.d[3] * ya4;
    const double x0 = line[i];
    line[i] = forward[i] + y0;
    xa4 = xa3, xa3 = xa2, xa2 = xa1, xa1 = x0;
    ya4 = ya3, ya3 = ya2, ya2 = ya1, ya1 = y0;
  }
}

// Runs body(first, last) over [0, count) split between the hardware threads.
template <class Body>
void in_parallel(int count, Body body) {
  const int threads = std::max(1, std::min(gauss::hardware_threads(), count));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    const int first = static_cast<int>(static_cast<long long>(count) * t / threads);
    const int last = static_cast<int>(static_cast<long long>(count) * (t + 1) / threads);
    workers.emplace_back([=] { body(first, last); });
  }
  for (std::thread& worker : workers) worker.join();
}

// A gray image as doubles, rows width apart.
struct Plane {
  int width;
  int height;
  std::vector<double> values;

  explicit Plane(const gauss::Image& image)
      : width(image.width), height(image.height), values(static_cast<std::size_t>(width) * height) {
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) at(x, y) = image.at(x, y);
  }
  double& at(int x, int y) { return values[static_cast<std::size_t>(y) * width + x]; }

  gauss::Image rounded() const {
    gauss::Image image = gauss::Image::make(width, height, gauss::PixelFormat::Gray);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const double v = std::floor(values[static_cast<std::size_t>(y) * width + x] + 0.5);
        image.at(x, y) = static_cast<std::uint8_t>(std::clamp(v, 0.0, 255.0));
      }
    return image;
  }
};

// Applies @p filter (a function of one contiguous line) to every row or every
// column of @p plane. Columns are gathered into contiguous lines in blocks of
// 16, so that each row of the plane is read a cache line at a time.
template <class Filter>
void filter_plane(Plane& plane, Passes passes, Filter filter) {
  if (passes != Passes::Columns) {
    in_parallel(plane.height, [&](int first, int last) {
      std::vector<double> line(static_cast<std::size_t>(plane.width));
      for (int y = first; y < last; ++y) {
        std::copy_n(&plane.at(0, y), plane.width, line.begin());
        filter(line);
        std::copy_n(line.begin(), plane.width, &plane.at(0, y));
      }
    });
  }
  if (passes != Passes::Rows) {
    constexpr int kBlock = 16;
    const int blocks = (plane.width + kBlock - 1) / kBlock;
    in_parallel(blocks, [&](int first, int last) {
      std::vector<std::vector<double>> lines(kBlock, std::vector<double>(static_cast<std::size_t>(plane.height)));
      for (int b = first; b < last; ++b) {
        const int x0 = b * kBlock;
        const int n = std::min(kBlock, plane.width - x0);
        for (int y = 0; y < plane.height; ++y)
          for (int i = 0; i < n; ++i)
            lines[static_cast<std::size_t>(i)][static_cast<std::size_t>(y)] = plane.at(x0 + i, y);
        for (int i = 0; i < n; ++i) filter(lines[static_cast<std::size_t>(i)]);
        for (int y = 0; y < plane.height; ++y)
          for (int i = 0; i < n; ++i)
            plane.at(x0 + i, y) = lines[static_cast<std::size_t>(i)][static_cast<std::size_t>(y)];
      }
    });
  }
}

}  // namespace

std::vector<double> deriche_line(const std::vector<double>& values, const DericheCoefficients& coefficients) {
  std::vector<double> line = values;
  std::vector<double> forward;
  filter_line(line.data(), line.size(), coefficients, forward);
  return line;
}

gauss::Image recursive_reference(const gauss::Image& input, double sigma, Passes passes) {
  const DericheCoefficients coefficients = deriche_coefficients(sigma);
  Plane plane(input);
  filter_plane(plane, passes, [&](std::vector<double>& line) {
    thread_local std::vector<double> forward;
    filter_line(line.data(), line.size(), coefficients, forward);
  });
  return plane.rounded();
}

gauss::Image gaussian_pass_reference(const gauss::Image& input, double sigma, int radius, Passes passes) {
  const std::vector<double> w = gauss::gaussian_weights({sigma, radius});
  Plane plane(input);
  filter_plane(plane, passes, [&](std::vector<double>& line) {
    const std::vector<double> original = line;
    const int count = static_cast<int>(line.size());
    for (int i = 0; i < count; ++i) {
      double sum = 0;
      for (int k = -radius; k <= radius; ++k)
        sum += w[static_cast<std::size_t>(k + radius)] *
               original[static_cast<std::size_t>(std::clamp(i + k, 0, count - 1))];
      line[static_cast<std::size_t>(i)] = sum;
    }
  });
  return plane.rounded();
}

}  // namespace gauss::deriche

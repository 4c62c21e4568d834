// Host memory a device can reach (host_memory.hpp).
#include "gauss/host_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace gauss {

OpenClPinnedMemory::OpenClPinnedMemory(OpenClSession& cl, std::size_t bytes)
    : queue_(cl.queue), buffer_(cl.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes) {
  data_ = static_cast<std::uint8_t*>(queue_.enqueueMapBuffer(buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
}

OpenClPinnedMemory::~OpenClPinnedMemory() {
  try {
    queue_.enqueueUnmapMemObject(buffer_, data_);
    queue_.finish();
  } catch (const cl::Error&) {  // a destructor must not throw; the context's release frees it anyway
  }
}

std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

std::size_t whole_pages(std::size_t bytes) { return round_up(std::max<std::size_t>(bytes, 1), page_size()); }

void FreeDeleter::operator()(std::uint8_t* p) const { std::free(p); }

PageAlignedBytes page_aligned(std::size_t bytes) {
  void* p = std::aligned_alloc(page_size(), whole_pages(bytes));
  if (p == nullptr) throw std::bad_alloc();
  return PageAlignedBytes(static_cast<std::uint8_t*>(p));
}

}  // namespace gauss

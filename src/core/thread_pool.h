// A fixed set of worker threads running submitted tasks in FIFO order.
// Each task learns which worker runs it, so it can use that worker's scratch
// memory without locks.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace twinvmaf {

class ThreadPool {
public:
    using Task = std::function<void(unsigned worker)>;

    explicit ThreadPool(unsigned workers);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    void submit(Task task);
    unsigned size() const { return static_cast<unsigned>(threads_.size()); }

private:
    void run(unsigned worker);

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Task> tasks_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// --threads 0 (and the default) means every core.
unsigned resolve_thread_count(unsigned requested);

}  // namespace twinvmaf

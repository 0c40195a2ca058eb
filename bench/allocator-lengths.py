#!/usr/bin/env python3
"""allocator-lengths.py - what PyTorch's caching allocator reserves when every training step
has another length (docs/training-peaks.md, "Reserved memory when every step has another
length").

It replays the rules of the CUDA caching allocator's large pool (c10/cuda/CUDACachingAllocator.cpp,
PyTorch 2.1 to 2.x without expandable segments) over the blocks one training step allocates and
frees, step after step, with the lengths drawn at random, and prints:

  - the one-shape figures: every step at the longest length (what gpusizer sizes);
  - max_memory_reserved over the run of varying lengths on a GPU with room to spare;
  - the smallest GPU (transient memory) on which that run completes: when a cudaMalloc would
    exceed it the allocator frees every cached segment nothing uses and retries
    (release_cached_blocks), and only then fails.

The allocator's rules followed (constants as in the source):
  - request sizes round up to 512 B (kMinBlockSize); requests up to 1 MiB (kSmallSize) go to the
    small pool, which is left out here (these blocks are small and apart);
  - a new segment is cudaMalloc'd at 20 MiB (kLargeBuffer) for requests under 10 MiB
    (kMinLargeAlloc), else at the request rounded up to 2 MiB (kRoundLarge)
    (get_allocation_size);
  - a request takes the smallest cached free block that holds it (get_free_block, best fit)
    and splits off the rest when more than 1 MiB remains (should_split);
  - a freed block merges with free neighbours in its segment (free_block);
  - segments go back to the device only on empty_cache or a failed cudaMalloc.

The step is the ms-swift benchmark's (Qwen-7B-Chat LoRA, batch 1, bf16 under autocast, full
recomputation through reentrant torch.utils.checkpoint, flash-attn), block by block from the code
(docs/training-peaks.md gives the reading): each layer's forward under no_grad keeps only its
output; the head's bf16 logits, their shifted contiguous copy, autocast's fp32 copy and
log_softmax's output; accelerate's convert_outputs_to_fp32 copy while the caller holds the output;
then backward: nll_loss's and log_softmax's fp32 gradients, the bf16 gradient and the slice's
zero-filled one, and per layer the recomputed saved tensors with the backward's temporaries.
The weights, LoRA states and small-pool blocks are left out: they are allocated once and take
no part. It is a model of the trace, not the trace: it shows how far the order of the lengths
moves the reserved figure and what the run needs, not a figure to the byte.

No dependency beyond Python 3.  Example (the published setup at max_length 2048):
    python3 bench/allocator-lengths.py --max-length 2048 --steps 1000 --seeds 8 --min-capacity
"""
import argparse
import bisect
import math
import random
import statistics

MIB = 1 << 20
GIB = 1 << 30
K_MIN_BLOCK = 512
K_SMALL_SIZE = 1 * MIB
K_MIN_LARGE_ALLOC = 10 * MIB
K_LARGE_BUFFER = 20 * MIB
K_ROUND_LARGE = 2 * MIB


def round_size(size):
    return max(K_MIN_BLOCK, (size + K_MIN_BLOCK - 1) // K_MIN_BLOCK * K_MIN_BLOCK)


def allocation_size(size):
    if size < K_MIN_LARGE_ALLOC:
        return K_LARGE_BUFFER
    return (size + K_ROUND_LARGE - 1) // K_ROUND_LARGE * K_ROUND_LARGE


class Block:
    __slots__ = ("segment", "offset", "size", "free", "prev", "next")

    def __init__(self, segment, offset, size):
        self.segment, self.offset, self.size = segment, offset, size
        self.free, self.prev, self.next = True, None, None

    def key(self):
        return (self.size, self.segment, self.offset)


class LargePool:
    """The large pool of one device and stream."""

    def __init__(self, capacity=None):
        self.capacity = capacity
        self.cached = []  # free blocks, sorted by (size, segment, offset): best fit is a bisect
        self.reserved = self.peak_reserved = 0
        self.allocated = self.peak_allocated = 0
        self.segments = 0

    def _cache(self, block):
        bisect.insort(self.cached, (block.key(), block))

    def _uncache(self, block):
        i = bisect.bisect_left(self.cached, (block.key(),))
        assert self.cached[i][1] is block
        self.cached.pop(i)

    def _release_cached_segments(self):
        whole = [b for _, b in self.cached if b.prev is None and b.next is None]
        for block in whole:
            self._uncache(block)
            self.reserved -= block.size

    def malloc(self, request):
        size = round_size(request)
        if size <= K_SMALL_SIZE:
            return None
        i = bisect.bisect_left(self.cached, ((size, -1, -1),))
        if i < len(self.cached):
            block = self.cached.pop(i)[1]
        else:
            grow = allocation_size(size)
            if self.capacity is not None and self.reserved + grow > self.capacity:
                self._release_cached_segments()
                if self.reserved + grow > self.capacity:
                    raise MemoryError
            self.segments += 1
            block = Block(self.segments, 0, grow)
            self.reserved += grow
            self.peak_reserved = max(self.peak_reserved, self.reserved)
        remaining = block.size - size
        if remaining > K_SMALL_SIZE:
            rest = Block(block.segment, block.offset + size, remaining)
            rest.prev, rest.next = block, block.next
            if block.next:
                block.next.prev = rest
            block.next = rest
            block.size = size
            self._cache(rest)
        block.free = False
        self.allocated += block.size
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        return block

    @staticmethod
    def _merge(left, right):
        """Fold `right`, the next block of the same segment, into `left`."""
        left.size += right.size
        left.next = right.next
        if right.next:
            right.next.prev = left

    def free(self, block):
        if block is None:
            return
        block.free = True
        self.allocated -= block.size
        if block.prev is not None and block.prev.free:
            self._uncache(block.prev)
            block = block.prev
            self._merge(block, block.next)
        if block.next is not None and block.next.free:
            self._uncache(block.next)
            self._merge(block, block.next)
        self._cache(block)


def train_step(pool, length, dims):
    """One micro-batch of `length` tokens (batch 1), block by block."""
    hidden, inter, vocab, layers = dims
    live = {}

    def new(name, nbytes):
        live[name] = pool.malloc(nbytes)

    def drop(name):
        pool.free(live.pop(name))

    act = 2 * length * hidden   # a bf16 activation of the residual width
    mlp = 2 * length * inter    # a bf16 activation of the MLP width
    logits = length * vocab     # logits of the micro-batch
    shifted = (length - 1) * vocab
    new("embedding", act)
    checkpoints = []
    for layer in range(layers):  # forward under no_grad (reentrant checkpoint): keeps the output
        new("ln1", act), new("qkv", 3 * act), drop("ln1")
        new("q", act), new("k", act), new("attn", act), drop("q"), drop("k"), drop("qkv")
        new("proj", act), drop("attn"), new("h", act), drop("proj")
        new("ln2", act), new("w1", mlp), new("w2", mlp), drop("ln2")
        new("gated", mlp), drop("w1"), drop("w2"), new("down", act), drop("gated")
        new("x%d" % layer, act), drop("down"), drop("h")
        checkpoints.append("x%d" % layer)
    new("ln_f", act)
    new("logits", 2 * logits)            # lm_head, bf16
    new("shift", 2 * shifted)            # lm_logits[..., :-1, :].contiguous()
    new("upcast", 4 * shifted)           # autocast runs cross_entropy in fp32
    new("log_softmax", 4 * shifted)      # saved for backward
    drop("upcast"), drop("shift")
    new("fp32_output", 4 * logits)       # accelerate convert_outputs_to_fp32
    drop("logits"), drop("fp32_output")  # the caller drops the output before backward
    new("nll_grad", 4 * shifted), new("lsm_grad", 4 * shifted)
    drop("nll_grad"), drop("log_softmax")
    new("grad16", 2 * shifted), drop("lsm_grad")
    new("slice_grad", 2 * logits), drop("grad16")
    new("grad", act), drop("slice_grad"), drop("ln_f")
    saved = [act, 3 * act, act, act, act, act, act, mlp, mlp, mlp, act]
    for layer in reversed(range(layers)):  # recompute with grad, then the layer's backward
        for j, nbytes in enumerate(saved):
            new("s%d" % j, nbytes)
        new("g_mlp", mlp), new("g_mlp2", mlp), new("g_h", act), drop("g_mlp"), drop("g_mlp2")
        new("g_qkv", 3 * act), new("g_x", act), drop("g_qkv"), drop("g_h")
        for j in range(len(saved)):
            drop("s%d" % j)
        drop("grad")
        live["grad"] = live.pop("g_x")
        drop(checkpoints[layer])
    drop("grad"), drop("embedding")
    assert not live


def run(lengths, dims, capacity=None):
    pool = LargePool(capacity)
    for length in lengths:
        train_step(pool, length, dims)
    return pool


def smallest_capacity(lengths, dims):
    lo, hi = 0, 4 * run(lengths, dims).peak_reserved
    while hi - lo > 16 * MIB:
        mid = (lo + hi) // 2
        try:
            run(lengths, dims, mid)
            hi = mid
        except MemoryError:
            lo = mid
    return hi


def draw_lengths(rng, steps, max_length, mean, sd, shortest):
    """Sample lengths by the dataset's published mean and deviation (a log-normal with those
    moments); samples longer than max_length are dropped, as ms-swift's truncation_strategy
    'delete' does."""
    s2 = math.log(1 + (sd / mean) ** 2)
    mu = math.log(mean) - s2 / 2
    out = []
    while len(out) < steps:
        x = int(rng.lognormvariate(mu, math.sqrt(s2)))
        if shortest <= x <= max_length:
            out.append(x)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-length", type=int, default=2048)
    ap.add_argument("--steps", type=int, default=1000, help="micro-batches in the run")
    ap.add_argument("--seeds", type=int, default=8, help="runs, each another order of lengths")
    ap.add_argument("--mean", type=float, default=3234.4, help="dataset tokens per sample")
    ap.add_argument("--sd", type=float, default=2547.5)
    ap.add_argument("--shortest", type=int, default=91)
    ap.add_argument("--dims", type=int, nargs=4, default=[4096, 11008, 151936, 32],
                    metavar=("HIDDEN", "INTERMEDIATE", "VOCAB", "LAYERS"))
    ap.add_argument("--min-capacity", action="store_true",
                    help="also search the smallest GPU each run completes on (slow)")
    args = ap.parse_args()
    dims = tuple(args.dims)
    loss_bytes = 12 * args.max_length * dims[2]
    print("transient memory, GiB (weights and small blocks left out); "
          "loss working set at max_length %.2f GiB" % (loss_bytes / GIB))
    grown = []
    for seed in range(args.seeds):
        lengths = draw_lengths(random.Random(seed), args.steps, args.max_length, args.mean,
                               args.sd, args.shortest)
        fixed_lengths = [max(lengths)] * 2
        fixed = run(fixed_lengths, dims)
        varying = run(lengths, dims)
        grown.append((varying.peak_reserved - fixed.peak_reserved) / loss_bytes)
        line = ("seed %d longest %d: one shape allocated %.2f reserved %.2f | varying reserved "
                "%.2f (+%.1f loss working sets)" % (
                    seed, max(lengths), fixed.peak_allocated / GIB, fixed.peak_reserved / GIB,
                    varying.peak_reserved / GIB, grown[-1]))
        if args.min_capacity:
            line += " | runs on %.2f (one shape %.2f)" % (
                smallest_capacity(lengths, dims) / GIB,
                smallest_capacity(fixed_lengths, dims) / GIB)
        print(line, flush=True)
    print("growth over the one-shape reserved, in loss working sets: min %.1f median %.1f max %.1f"
          % (min(grown), statistics.median(grown), max(grown)))


if __name__ == "__main__":
    main()

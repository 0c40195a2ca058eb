/*
 * test_device_map.c - transformers' device_map="auto" placement (gs/device_map.h), each case
 * worked out by hand from transformers integrations/accelerate.py (get_balanced_memory,
 * infer_auto_device_map) over the modules' byte sizes.
 */
#include "gs/device_map.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void fill(uint64_t *bytes, uint64_t n, uint64_t each)
{
    for (uint64_t i = 0; i < n; i++)
        bytes[i] = each;
}

/* Llama-3.1-8B in bf16 over two GPUs. A layer: 2 x (2 x 4,096^2 + 2 x 4,096 x 1,024 + 3 x
 * 4,096 x 14,336 + 2 x 4,096) = 436,224,000 bytes; the embedding and the untied head 2 x
 * 128,256 x 4,096 = 1,050,673,152 each; the final norm 8,192. The model: 16,060,522,496;
 * get_balanced_memory: 16,060,522,496 // 2 + int(1.25 x 436,224,000) = 8,030,261,248 +
 * 545,280,000 = 8,575,541,248 a GPU. GPU 0 keeps room for the largest module still to place,
 * the head: 8,575,541,248 - 1,050,673,152 = 7,524,868,096 for the embedding and 14 layers
 * (7,157,809,152; a 15th would make 7,594,033,152). GPU 1, the last, takes the other 18, the
 * norm and the head. In nf4 (bitsandbytes 4-bit weights counted at half a byte,
 * HfQuantizer.param_element_size; norms at 2 bytes) a layer is 218,103,808 / 2 + 16,384 =
 * 109,068,288: the model 32 x 109,068,288 + 2,101,354,496 = 5,591,539,712, a balanced share of
 * 2,795,769,856 + 136,335,360 = 2,932,105,216, of which bitsandbytes' adjust_max_memory leaves
 * 0.9: 2,638,894,694; GPU 0's room 1,588,221,542: the embedding and 4 layers (1,486,946,304; 5
 * would make 1,596,014,592), the other 28 on GPU 1. Without the 0.9, 7 and 25. */
static void test_llama_8b(void **state)
{
    (void)state;
    uint64_t layers[32];
    fill(layers, 32, 436224000ULL);
    struct gs_device_map_input in = {
        .gpus = 2,
        .layers = 32,
        .layer_bytes = layers,
        .embedding_bytes = 1050673152ULL,
        .norm_bytes = 8192,
        .head_bytes = 1050673152ULL,
        .no_split_bytes = 436224000ULL,
        .mean_leaf_bytes = 16060522496ULL / (32 * 9 + 3),
    };
    struct gs_device_map map;
    assert_true(gs_device_map_place(&in, &map));
    assert_int_equal(map.per_gpu_bytes, 8575541248ULL);
    assert_int_equal(map.layers_on[0], 14);
    assert_int_equal(map.layers_on[1], 18);
    assert_int_equal(map.head_gpu, 1);

    fill(layers, 32, 109068288ULL);
    in.no_split_bytes = 109068288ULL;
    in.mean_leaf_bytes = 0;
    in.bitsandbytes = true;
    assert_true(gs_device_map_place(&in, &map));
    assert_int_equal(map.per_gpu_bytes, 2638894694ULL);
    assert_int_equal(map.layers_on[0], 4);
    assert_int_equal(map.layers_on[1], 28);
    in.bitsandbytes = false;
    assert_true(gs_device_map_place(&in, &map));
    assert_int_equal(map.per_gpu_bytes, 2932105216ULL);
    assert_int_equal(map.layers_on[0], 7);
    assert_int_equal(map.layers_on[1], 25);

    /* three GPUs in bf16: 16,060,522,496 // 3 + 545,280,000 = 5,898,787,498; GPU 0 the
     * embedding and 8 layers (4,540,465,152 of its 4,848,114,346), GPU 1 13 (5,670,912,000; a
     * 14th would pass 5,898,787,498), GPU 2 the other 11 with the norm and the head */
    fill(layers, 32, 436224000ULL);
    in.no_split_bytes = 436224000ULL;
    in.gpus = 3;
    assert_true(gs_device_map_place(&in, &map));
    assert_int_equal(map.per_gpu_bytes, 5898787498ULL);
    assert_int_equal(map.layers_on[0], 8);
    assert_int_equal(map.layers_on[1], 13);
    assert_int_equal(map.layers_on[2], 11);
    assert_int_equal(map.head_gpu, 2);
}

/* Llama-3.2-3B in bf16, its head tied to the embedding (counted once, with it: transformers'
 * compute_module_sizes skips tied keys, get_module_size_with_ties places them together). A
 * layer: 2 x (2 x 3,072^2 + 2 x 3,072 x 1,024 + 3 x 3,072 x 8,192 + 2 x 3,072) = 201,338,880;
 * the embedding 2 x 128,256 x 3,072 = 788,004,864; the model 28 x 201,338,880 + 788,004,864 +
 * 6,144 = 6,425,499,648. Two GPUs: 3,212,749,824 + int(1.25 x 201,338,880) = 3,464,423,424.
 * While the embedding is placed GPU 0 keeps a layer's room (the largest module after it);
 * then the embedding and 12 layers (3,204,071,424 of 3,263,084,544), GPU 1 the other 16; the
 * head, and so the loss, on GPU 0. */
static void test_tied_head(void **state)
{
    (void)state;
    uint64_t layers[28];
    fill(layers, 28, 201338880ULL);
    struct gs_device_map_input in = {
        .gpus = 2,
        .layers = 28,
        .layer_bytes = layers,
        .embedding_bytes = 788004864ULL,
        .norm_bytes = 6144,
        .head_tied = true,
        .no_split_bytes = 201338880ULL,
    };
    struct gs_device_map map;
    assert_true(gs_device_map_place(&in, &map));
    assert_int_equal(map.per_gpu_bytes, 3464423424ULL);
    assert_int_equal(map.layers_on[0], 12);
    assert_int_equal(map.layers_on[1], 16);
    assert_int_equal(map.head_gpu, 0);
}

/* A GPU left without a module: a one-layer model whose decoder (1,000 + 100 + 10 bytes) fits
 * GPU 0's budget (1,210 // 2 + 1,250 = 1,855, less the head's room, 100) whole, and the head
 * after it (nothing left to keep room for): GPU 1 gets nothing. Eight GPUs for a model whose
 * embedding passes every budget but the last GPU's leave GPU 0 empty. */
static void test_unused_gpu(void **state)
{
    (void)state;
    uint64_t one = 1000;
    struct gs_device_map_input in = {
        .gpus = 2,
        .layers = 1,
        .layer_bytes = &one,
        .embedding_bytes = 100,
        .norm_bytes = 10,
        .head_bytes = 100,
        .no_split_bytes = 1000,
    };
    struct gs_device_map map;
    assert_false(gs_device_map_place(&in, &map));
    assert_int_equal(map.per_gpu_bytes, 1855);
    assert_int_equal(map.unused_gpu, 1);

    uint64_t layers[4] = {100, 100, 100, 100};
    in.layers = 4;
    in.layer_bytes = layers;
    in.embedding_bytes = 1000;
    in.head_bytes = 0;
    in.head_tied = true;
    in.no_split_bytes = 100;
    in.gpus = 8;
    assert_false(gs_device_map_place(&in, &map));
    assert_int_equal(map.unused_gpu, 0);

    in.gpus = 1; /* not a map over GPUs */
    assert_false(gs_device_map_place(&in, &map));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama_8b),
        cmocka_unit_test(test_tied_head),
        cmocka_unit_test(test_unused_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * train_peak.c - the peak moment of a training step (see gs/train_peak.h).
 */
#include "gs/train_peak.h"

#include "gs/units.h"

#include <string.h>

bool gs_train_peak(const struct gs_peak_input *in, struct gs_peak *out)
{
    bool ovf = false;
    memset(out, 0, sizeof(*out));
    const uint64_t base = gs_add(gs_add(in->weights, in->optimizer, &ovf), in->workspace, &ovf);
    uint64_t grads[GS_PHASE_COUNT], acts[GS_PHASE_COUNT], trans[GS_PHASE_COUNT];

    /* under FSDP1's no_sync() the micro-batches before the syncing one leave every unit's
     * gradient unsharded, and the syncing one's backward starts on them */
    grads[GS_PHASE_BACKWARD_START] = in->no_sync_grads ? in->no_sync_grads
                                     : in->grads_persist ? in->gradients
                                                         : 0;
    /* Backward starts with moments of its own, beside every saved activation; the largest
     * counts (the earlier on a tie):
     * - the loss's backward over the logits;
     * - with full checkpointing, the last layer's recomputation: the autograd engine has freed
     *   the loss's buffers by then, not the trained head's gradient made just before it,
     *   unless it is kept anyway (gradients that persist) or an optimizer-in-backward step has
     *   freed it (a tied head's waits for the embedding's, at the end of backward); without
     *   it, the last layer's backward over the saved activations: what it holds beyond them
     *   (its gradient pair or a torch scan's full-shape product gradients, and what a selective
     *   recomputation recomputes), the head's gradient beside it as above;
     * - the trained head's backward, once the loss's has freed its buffers: the autograd
     *   engine runs every chunk's loss backward before any chunk's output projection (its
     *   ready queue takes the highest sequence number first, torch/csrc/autograd/engine.cpp,
     *   and the loss nodes were made after every chunk's projection), so all the chunks'
     *   logits gradients wait for it. Chunk k's projection backward makes a full weight
     *   gradient (dW = dlogits^T h) while the chunks before it still wait; from the second
     *   chunk on, the engine's input buffer holds the sum so far beside it (input_buffer.cpp
     *   accumulate). The larger of the first chunk's moment (every chunk's logits gradient and
     *   one weight gradient) and the second's ((c - 1) / c of them and two), the norms' saved
     *   input and the logits the caller holds still there. A frozen 4-bit head's backward
     *   makes no weight gradient but dequantizes the weight for each chunk's input gradient
     *   (bitsandbytes MatMul4Bit.backward), beside every chunk's logits gradient. */
    struct moment {
        uint64_t acts, grads, trans; /* beyond the saved activations and what every moment has */
        enum gs_start_moment kind;
    } moments[4] = {{in->loss, 0, 0, GS_START_LOSS}};
    size_t n = 1;
    /* Just before: the forward's end, where a loop that rebinds its output only when the next
     * forward returns still holds the previous micro-batch's graph and logits. This forward's
     * logits at their largest: its head's output and the fp32 copy the caller's wrapper makes
     * of it; or, with a 4-bit head, the last chunk's projection, which dequantizes the weight
     * beside the chunks before it (MatMul4Bit.forward: F.dequantize_4bit(B,
     * quant_state).to(A.dtype)). The final norms' saved output is held throughout. */
    if (in->previous_graph || in->previous_logits) {
        const uint64_t chunks = in->loss_chunks > 1 ? in->loss_chunks : 1;
        struct moment end = {in->forward_logits, 0, 0, GS_START_FORWARD_END};
        const uint64_t before_last = in->logit_grads / chunks * (chunks - 1);
        if (in->head_dequant && gs_add(before_last, in->head_dequant, &ovf) > end.acts)
            end = (struct moment){before_last, 0, in->head_dequant, GS_START_FORWARD_END};
        end.acts = gs_add(
            end.acts,
            gs_add(gs_add(in->previous_graph, in->previous_logits, &ovf), in->head_kept, &ovf),
            &ovf);
        moments[n++] = end;
    }
    /* Backward ends with the token embedding's (the model's first op), whose gradient is a
     * whole vocabulary x hidden tensor (embedding_dense_backward). Gradients freed between
     * steps (`fresh`) count it as final, so before it they hold that much less; gradients kept
     * (accumulation, buffers, DeepSpeed's partitions) have it beside them until the
     * accumulation, and an optimizer-in-backward step until its step. A tied head's waits for
     * it: the shared weight's AccumulateGrad runs once both have arrived
     * (torch/csrc/autograd/engine.cpp: a node is ready when its dependencies are met), so the
     * head's sits in the node's input buffer from the head's backward on, and
     * input_buffer.cpp accumulate adds the embedding's to it in place; where the gradients
     * counted do not hold that buffer (not `fresh`), it is apart, beside them. */
    const uint64_t emb = in->embedding_grad;
    const bool fresh = !in->grads_persist && !in->optimizer_in_backward;
    const bool tied = in->head_tied && in->head_grad; /* a trained head, the embedding's matrix */
    const uint64_t tied_apart = tied && emb && !fresh ? emb : 0;
    const bool head_grad_new =
        !in->grads_persist && !in->no_sync_grads && !(in->optimizer_in_backward && !in->head_tied);
    const uint64_t head_grad_held = head_grad_new || tied_apart ? in->head_grad : 0;
    if (in->recomputed)
        moments[n++] = (struct moment){in->layer_working, head_grad_held, 0, GS_START_RECOMPUTE};
    else if (in->layer_backward) /* the last layer's backward over its saved tensors */
        moments[n++] = (struct moment){in->layer_backward, head_grad_held, 0, GS_START_LAST_LAYER};
    if ((in->head_grad || in->head_dequant) && in->logit_grads) {
        const uint64_t chunks = in->loss_chunks > 1 ? in->loss_chunks : 1;
        struct moment head = {in->logit_grads, in->head_grad, 0, GS_START_HEAD};
        if (chunks > 1) {
            const uint64_t rest = in->logit_grads / chunks * (chunks - 1);
            if (gs_add(rest, in->head_grad, &ovf) > head.acts)
                head = (struct moment){rest, in->head_grad, in->head_grad, GS_START_HEAD};
        }
        /* a 4-bit head dequantizes its weight in each chunk's backward, the first's too */
        head.trans = gs_add(head.trans, in->head_dequant, &ovf);
        head.acts = gs_add(gs_add(head.acts, in->head_kept, &ovf), in->logits_held, &ovf);
        moments[n++] = head;
    }
    size_t pick = 0;
    uint64_t largest = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t sum =
            gs_add(gs_add(moments[i].acts, moments[i].grads, &ovf), moments[i].trans, &ovf);
        if (i == 0 || sum > largest) {
            largest = sum;
            pick = i;
        }
    }
    out->start = moments[pick].kind;
    acts[GS_PHASE_BACKWARD_START] = gs_add(in->stored, moments[pick].acts, &ovf);
    grads[GS_PHASE_BACKWARD_START] =
        gs_add(grads[GS_PHASE_BACKWARD_START], moments[pick].grads, &ovf);
    trans[GS_PHASE_BACKWARD_START] = gs_add(gs_add(in->unsharded, in->autocast_copies, &ovf),
                                            moments[pick].trans, &ovf);

    /* optimizer-in-backward frees each gradient right after its step. Backward ends with the
     * first layer's backward (its working set; the embedding's gradient not made yet) and the
     * embedding's (its new gradient, beside what its kernel holds while making it,
     * embedding_backward): the larger counts (the layer's on a tie) */
    const uint64_t end_grads =
        gs_add(in->optimizer_in_backward ? 0 : in->gradients, tied_apart, &ovf);
    const uint64_t not_yet = fresh && !tied && emb <= end_grads ? emb : 0;
    const uint64_t made = fresh && !tied ? 0 : emb;
    const uint64_t emb_working = emb ? in->embedding_backward : 0;
    grads[GS_PHASE_BACKWARD_END] = end_grads - not_yet;
    acts[GS_PHASE_BACKWARD_END] = in->layer_working;
    trans[GS_PHASE_BACKWARD_END] = gs_add(in->unsharded, in->unsharded_grad, &ovf);
    if (gs_add(gs_add(end_grads, made, &ovf), emb_working, &ovf) >
        gs_add(end_grads - not_yet, in->layer_working, &ovf)) {
        grads[GS_PHASE_BACKWARD_END] = gs_add(end_grads, made, &ovf);
        acts[GS_PHASE_BACKWARD_END] = 0;
        trans[GS_PHASE_BACKWARD_END] = gs_add(trans[GS_PHASE_BACKWARD_END], emb_working, &ovf);
    }
    /* an accumulating micro-batch ends its backward with every unit's gradient unsharded (the
     * last unit's among them), no reduce-scatter; above the syncing one's sharded gradients */
    const bool unsynced_end = !in->optimizer_in_backward &&
                              in->no_sync_grads > gs_add(in->gradients, in->unsharded_grad, &ovf);
    if (unsynced_end) {
        grads[GS_PHASE_BACKWARD_END] = in->no_sync_grads;
        trans[GS_PHASE_BACKWARD_END] = in->unsharded;
    }

    grads[GS_PHASE_OPTIMIZER_STEP] = in->optimizer_in_backward ? 0 : in->gradients;
    acts[GS_PHASE_OPTIMIZER_STEP] = 0;
    trans[GS_PHASE_OPTIMIZER_STEP] = in->optimizer_in_backward ? 0 : in->step_temporaries;

    /* what the reduce-scatter stream's pool holds at each moment: the sharded gradients (each
     * reduce-scatter's output, allocated in that stream and kept as the sharded parameter's
     * .grad). The reduce-scatter input is the default stream's: FSDP2 copies the unsharded
     * gradients into it there (_fsdp_collectives.py foreach_reduce, since pytorch PR #129721,
     * June 2024, torch 2.5: "allowing the reduce-scatter input ... to be allocated in the
     * default stream to avoid fragmenting that memory across stream memory pools"). Gradients
     * kept unsharded under no_sync are autograd's, on the default stream too (FSDP2's
     * post_backward keeps them there, _fsdp_param.py to_accumulated_grad_if_needed): of those
     * moments' gradients only the sharded ones that persist between steps (no_sync_sharded)
     * are the pool's */
    uint64_t side[GS_PHASE_COUNT] = {0, 0, 0};
    if (in->reduce_stream) {
        const uint64_t persisting = in->no_sync_sharded;
        side[GS_PHASE_BACKWARD_START] = in->no_sync_grads ? persisting : grads[GS_PHASE_BACKWARD_START];
        side[GS_PHASE_BACKWARD_END] = unsynced_end ? persisting : grads[GS_PHASE_BACKWARD_END];
        side[GS_PHASE_OPTIMIZER_STEP] = grads[GS_PHASE_OPTIMIZER_STEP];
        const uint64_t sharded = in->optimizer_in_backward ? 0 : in->gradients;
        out->side_pools = gs_add(sharded, in->gather_pool, &ovf);
    }
    for (int p = 0; p < GS_PHASE_COUNT; p++) {
        out->phases[p] = gs_add(gs_add(base, grads[p], &ovf), gs_add(acts[p], trans[p], &ovf),
                                &ovf);
        out->moments[p] = (struct gs_peak_moment){grads[p], acts[p],
                                                  gs_add(trans[p], in->workspace, &ovf),
                                                  out->phases[p]};
        const uint64_t own = out->phases[p] > side[p] ? out->phases[p] - side[p] : 0;
        if (own > out->default_stream_peak)
            out->default_stream_peak = own;
        if (p == 0 || out->phases[p] > out->allocated) {
            out->allocated = out->phases[p];
            out->phase = (enum gs_peak_phase)p;
            out->gradients = grads[p];
            out->activations = acts[p];
            out->transient = gs_add(trans[p], in->workspace, &ovf);
        }
    }
    return !ovf;
}

const char *gs_peak_phase_name(enum gs_peak_phase phase)
{
    switch (phase) {
    case GS_PHASE_BACKWARD_START:
        return "backward_start";
    case GS_PHASE_BACKWARD_END:
        return "backward_end";
    case GS_PHASE_OPTIMIZER_STEP:
        return "optimizer_step";
    case GS_PHASE_COUNT:
        break;
    }
    return "";
}

#!/usr/bin/env python3
"""Builds the golden fixtures in tests/golden/ from Hugging Face transformers.

Steps (each can be run alone, see --help):
  tokenizers  train the two tiny SentencePiece models with `spm_train` (needs the SROIE jsonl; skipped when the
              spiece.model files already exist unless --retrain-tokenizers)
  models      create the tiny random T5 checkpoints (fixed seed) and save them with save_pretrained
  dumps       golden.json per model folder (encoder/decoder activations, logits, greedy and beam outputs)
  tokenizer   tokenizer/<name>.{inp,out,dec,spm} goldens

The fixture format is described in tests/golden/README.md.
"""

import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from golden_tokenizers import make_tokenizer_goldens, train_tokenizers  # noqa: E402

# ----------------------------------------------------------------------------------------------------------------
# Tiny random checkpoints.
# ----------------------------------------------------------------------------------------------------------------

COMMON_CONFIG = dict(
    d_model=64,
    d_kv=16,
    num_heads=4,
    relative_attention_num_buckets=32,
    relative_attention_max_distance=128,
    dropout_rate=0.0,
    layer_norm_epsilon=1e-6,
    pad_token_id=0,
    eos_token_id=1,
    decoder_start_token_id=0,
)

MODELS = {
    # name -> (tokenizer folder, config overrides, initializer_factor, first torch seed). The factor (HF's default is
    # 1.0, stored in config.json) is raised so that greedy decoding of random weights does not just repeat one token;
    # seeds from the first one up are tried until nudge_eos() succeeds.
    "t5-tiny-v10": ("t5-tiny-v10", dict(feed_forward_proj="relu", tie_word_embeddings=True, d_ff=128,
                                         num_layers=2, num_decoder_layers=3), 2.5, 1234),
    "t5-tiny-v11": ("t5-tiny-v11", dict(feed_forward_proj="gated-gelu", tie_word_embeddings=False, d_ff=96,
                                         num_layers=3, num_decoder_layers=2), 2.0, 1234),
}
# Copies of t5-tiny-v11 with the same weights stored in another dtype.
DTYPE_COPIES = {"t5-tiny-v11-bf16": "bfloat16", "t5-tiny-v11-f16": "float16"}

EOS_ID = 1
MAX_NEW_TOKENS = 20
# Candidate strengths of the EOS nudge, tried in order (see nudge_eos()); the loop stops early once every sequence ends.
EOS_ALPHAS = [round(0.02 * i, 2) for i in range(0, 301)]

INPUTS = [
    "TOTAL RM 9.00 CASH 10.00 CHANGE 1.00",
    "THANK YOU",
    "合計 ¥1,506 お預り ¥2,000 ｵﾆｷﾞﾘ",
    "BOOK TA .K (TAMAN DAYA) SDN BHD 789417-W NO.53 55,57 & 59, JALAN SAGU 18, TAMAN DAYA, 81100 JOHOR BAHRU, "
    "JOHOR. DOCUMENT NO : TD01167104 DATE: 25/12/2018 8:13:39 PM CASHIER: MANIS KF MODELLING CLAY KIDDY FISH "
    "1 PC 9.000 0.00 9.00 TOTAL: 9.00",
]


def import_hf():
    global torch, transformers, T5Config, T5ForConditionalGeneration, T5Tokenizer, GenerationConfig
    import torch
    import transformers
    from transformers import GenerationConfig, T5Config, T5ForConditionalGeneration, T5Tokenizer
    torch.set_grad_enabled(False)


def load_tokenizer(folder):
    # transformers 5.x: only from_pretrained() converts spiece.model; T5Tokenizer(vocab_file=...) silently builds
    # a placeholder vocabulary of 4 pieces + extra ids instead.
    tok = T5Tokenizer.from_pretrained(folder, extra_ids=100)
    sp_size = spm_piece_count(os.path.join(folder, "spiece.model"))
    assert len(tok) == sp_size + 100, (len(tok), sp_size)
    return tok


def spm_piece_count(path):
    import sentencepiece as spm
    return spm.SentencePieceProcessor(model_file=path).get_piece_size()


def build_model(name, seed):
    tok_folder, overrides, factor, _ = MODELS[name]
    vocab_size = spm_piece_count(os.path.join(HERE, tok_folder, "spiece.model")) + 100
    cfg = T5Config(vocab_size=vocab_size, initializer_factor=factor, **COMMON_CONFIG, **overrides)
    torch.manual_seed(seed)
    model = T5ForConditionalGeneration(cfg).eval()
    if not overrides["tie_word_embeddings"]:
        # transformers 5.x forces config.tie_word_embeddings=True for T5 (tie_word_embeddings=False only turns off
        # the d_model^-0.5 output scaling, stored as scale_decoder_outputs=false) and ties lm_head to `shared`.
        # A real v1.1 checkpoint has its own lm_head, so untie it. Its init is N(0, d_model^-0.5) (HF's would be
        # N(0, factor), which makes the unscaled logits so peaked that beam search degenerates to greedy).
        g = torch.Generator().manual_seed(seed + 1)
        w = torch.randn(cfg.vocab_size, cfg.d_model, generator=g) * cfg.d_model ** -0.5
        model.lm_head.weight = torch.nn.Parameter(w)
        model.all_tied_weights_keys.pop("lm_head.weight", None)
    assert model.lm_head.weight.data_ptr() != model.shared.weight.data_ptr() or overrides["tie_word_embeddings"]
    return model


def lm_head_input(model, hidden):
    # hidden: decoder last_hidden_state (after final_layer_norm) -> what lm_head sees.
    return hidden * (model.config.d_model ** -0.5) if model.config.scale_decoder_outputs else hidden


def encode_batch(tok, texts):
    enc = tok(texts, padding=True, return_tensors="pt")
    return enc.input_ids, enc.attention_mask


def generation_config(**kw):
    """A GenerationConfig with every knob that could change the result set explicitly."""
    base = dict(
        max_new_tokens=MAX_NEW_TOKENS, min_new_tokens=0, num_beams=1, do_sample=False, num_return_sequences=1,
        length_penalty=1.0, early_stopping=False, no_repeat_ngram_size=0, encoder_no_repeat_ngram_size=0,
        repetition_penalty=1.0, encoder_repetition_penalty=1.0, bad_words_ids=None, suppress_tokens=None,
        begin_suppress_tokens=None, forced_bos_token_id=None, forced_eos_token_id=None, diversity_penalty=0.0,
        num_beam_groups=1, exponential_decay_length_penalty=None, renormalize_logits=False, remove_invalid_values=False,
        temperature=1.0, top_k=None, top_p=None, typical_p=None, min_p=None, epsilon_cutoff=0.0, eta_cutoff=0.0,
        decoder_start_token_id=0, eos_token_id=EOS_ID, pad_token_id=0, bos_token_id=None,
    )
    base.update(kw)
    return base


def use_cache_ok(model):
    # transformers 5.x sizes the decoder KV cache by config.num_layers (the encoder depth): generate() with
    # use_cache=True raises IndexError when num_decoder_layers > num_layers. Such models are run without a cache.
    return model.config.num_decoder_layers <= model.config.num_layers


def run_generate(model, ids, mask, output_hidden_states=False, **kw):
    gkw = generation_config(use_cache=use_cache_ok(model), **kw)
    gc = GenerationConfig(**gkw, return_dict_in_generate=True, output_scores=True, output_logits=True,
                          output_hidden_states=output_hidden_states)
    out = model.generate(input_ids=ids, attention_mask=mask, generation_config=gc)
    seqs = []
    for row in out.sequences.tolist():
        assert row[0] == 0, "decoder start token expected first"
        gen = row[1:]
        # Cut after the first EOS; a sequence without EOS ran to max_new_tokens. (Greedy pads finished rows with
        # pad=0, beam search pads them with EOS=1 - see README - so stripping trailing pads is not enough.)
        if EOS_ID in gen:
            gen = gen[: gen.index(EOS_ID) + 1]
        seqs.append(gen)
    return gkw, out, seqs


def nudge_eos(model, tok):
    """Adds alpha * u to the EOS row of lm_head (the shared embedding when tied), u = mean lm_head input over the
    greedy steps of the golden batch at alpha = 0. Keeps the first alpha in EOS_ALPHAS for which greedy decoding of
    the golden batch ends at least one input with EOS after 3..max_new_tokens-1 tokens and runs at least one other
    input to max_new_tokens without EOS. Returns alpha."""
    ids, mask = encode_batch(tok, INPUTS)
    gkw, out, _ = run_generate(model, ids, mask, output_hidden_states=True)
    steps = [lm_head_input(model, s[-1][:, -1, :]) for s in out.decoder_hidden_states]
    u = torch.cat(steps, 0).mean(0)
    row = model.lm_head.weight.data[EOS_ID].clone()
    for alpha in EOS_ALPHAS:
        model.lm_head.weight.data[EOS_ID] = row + alpha * u
        _, _, seqs = run_generate(model, ids, mask)
        ended = [EOS_ID in s and 3 <= len(s) < MAX_NEW_TOKENS for s in seqs]
        full = [EOS_ID not in s for s in seqs]
        varied = all(len(set(s)) >= 4 for s in seqs if EOS_ID not in s)
        if any(ended) and any(full) and varied:
            return alpha
        if not any(full):
            break  # a larger nudge only ends more sequences
    return None


def save_model(model, name, dtype, tok_folder, meta):
    out_dir = os.path.join(HERE, name)
    os.makedirs(out_dir, exist_ok=True)
    m = model
    if dtype != "float32":
        m = copy_model(model).to(getattr(torch, dtype))
    m.save_pretrained(out_dir, safe_serialization=True)
    for extra in ("generation_config.json",):
        p = os.path.join(out_dir, extra)
        if os.path.exists(p):
            os.remove(p)
    cfg_path = os.path.join(out_dir, "config.json")
    with open(cfg_path, encoding="utf-8") as f:
        cfg = json.load(f)
    if not meta["tie_word_embeddings"]:
        # Write the config the way published v1.1 / flan-t5 configs look (and transformers 4.x wrote them).
        cfg["tie_word_embeddings"] = False
        cfg.pop("scale_decoder_outputs", None)
    with open(cfg_path, "w", encoding="utf-8") as f:
        json.dump(cfg, f, indent=2, sort_keys=True)
        f.write("\n")
    if os.path.abspath(tok_folder) != os.path.abspath(out_dir):
        shutil.copy(os.path.join(tok_folder, "spiece.model"), os.path.join(out_dir, "spiece.model"))


def copy_model(model):
    import copy
    return copy.deepcopy(model)


def build_models():
    info = {}
    for name, (tok_folder, overrides, factor, seed) in MODELS.items():
        tok = load_tokenizer(os.path.join(HERE, tok_folder))
        for seed in range(seed, seed + 50):
            model = build_model(name, seed)
            alpha = nudge_eos(model, tok)
            if alpha is not None:
                break
        else:
            raise RuntimeError(f"{name}: no seed gave usable greedy outputs")
        meta = {"tie_word_embeddings": overrides["tie_word_embeddings"], "eos_alpha": alpha,
                "initializer_factor": factor, "seed": seed}
        save_model(model, name, "float32", os.path.join(HERE, tok_folder), meta)
        info[name] = meta
        print(f"[models] {name}: eos alpha {alpha}")
        if name == "t5-tiny-v11":
            for copy_name, dtype in DTYPE_COPIES.items():
                save_model(model, copy_name, dtype, os.path.join(HERE, tok_folder), meta)
                info[copy_name] = dict(meta, source="t5-tiny-v11", stored_dtype=dtype)
                print(f"[models] {copy_name}: {dtype} copy of t5-tiny-v11")
    with open(os.path.join(HERE, "models.json"), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=2, sort_keys=True)
        f.write("\n")


# ----------------------------------------------------------------------------------------------------------------
# golden.json per model folder.
# ----------------------------------------------------------------------------------------------------------------

def r7(x):
    """Nested lists of floats rounded to 7 significant digits."""
    if isinstance(x, torch.Tensor):
        x = x.tolist()
    if isinstance(x, list):
        return [r7(v) for v in x]
    return float(f"{x:.7g}")


def load_saved(folder):
    model = T5ForConditionalGeneration.from_pretrained(folder, dtype=torch.float32).eval()
    # What a C++ loader must reproduce: tied output iff lm_head.weight is absent; scaling iff the config says tied.
    from safetensors import safe_open
    with safe_open(os.path.join(folder, "model.safetensors"), "pt") as f:
        keys = set(f.keys())
        if "lm_head.weight" in keys:
            assert torch.equal(model.lm_head.weight, f.get_tensor("lm_head.weight").float())
            assert model.lm_head.weight.data_ptr() != model.shared.weight.data_ptr()
        else:
            assert model.lm_head.weight.data_ptr() == model.shared.weight.data_ptr()
    with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
        assert model.config.scale_decoder_outputs == json.load(f)["tie_word_embeddings"]
    assert getattr(model.config, "task_specific_params", None) in (None, {})
    # Drop the generation_config derived from config.json: every generate() call below passes all its knobs.
    model.generation_config = GenerationConfig(**generation_config())
    return model


def block_outputs(stack, fn):
    """Runs fn() and returns the raw output of every T5Block of `stack` (the last one before final_layer_norm)."""
    captured = []
    hooks = [b.register_forward_hook(lambda mod, args, out: captured.append(out[0] if isinstance(out, tuple) else out))
             for b in stack.block]
    try:
        result = fn()
    finally:
        for h in hooks:
            h.remove()
    return result, captured


def greedy_manual(model, ids_row, n_steps):
    """Greedy decode of one unpadded input without a KV cache: full decoder pass per step. Returns (ids, logits per
    step). Used to cross-check generate() and to dump per-step logits."""
    enc = model.get_encoder()(input_ids=ids_row).last_hidden_state
    dec = [0]
    logits_steps = []
    for _ in range(n_steps):
        out = model(encoder_outputs=(enc,), decoder_input_ids=torch.tensor([dec]), use_cache=False)
        lg = out.logits[0, -1]
        logits_steps.append(lg)
        nxt = int(torch.argmax(lg))
        dec.append(nxt)
        if nxt == EOS_ID:
            break
    return dec[1:], logits_steps


def make_dump(name):
    folder = os.path.join(HERE, name)
    tok = load_tokenizer(folder)
    model = load_saved(folder)
    cfg = model.config
    ids, mask = encode_batch(tok, INPUTS)
    lens = mask.sum(1).tolist()
    input_ids = [ids[i, : lens[i]].tolist() for i in range(len(INPUTS))]
    assert all(r[-1] == EOS_ID for r in input_ids)
    assert len(input_ids[3]) >= 60, len(input_ids[3])
    d = {
        "model": name,
        "versions": versions(),
        "config": {k: getattr(cfg, k) for k in ("d_model", "d_kv", "d_ff", "num_heads", "num_layers",
                                                "num_decoder_layers", "vocab_size", "feed_forward_proj",
                                                "scale_decoder_outputs", "relative_attention_num_buckets",
                                                "relative_attention_max_distance", "layer_norm_epsilon")},
        "inputs": INPUTS,
        "input_ids": input_ids,
        "decoder_start_token_id": 0,
        "eos_token_id": EOS_ID,
        "pad_token_id": 0,
    }

    # Encoder on the padded batch (attention_mask), padding positions dropped.
    enc = model.get_encoder()(input_ids=ids, attention_mask=mask).last_hidden_state
    d["encoder_output"] = [r7(enc[i, : lens[i]]) for i in range(len(INPUTS))]

    # Input 0 alone: every layer of the encoder and of the decoder's first step.
    ids0 = torch.tensor([input_ids[0]])
    enc0, enc_blocks = block_outputs(model.encoder, lambda: model.get_encoder()(input_ids=ids0,
                                                                               output_hidden_states=True))
    d["encoder_hidden_states"] = [r7(h[0]) for h in enc0.hidden_states]
    d["encoder_block_outputs"] = [r7(h[0]) for h in enc_blocks]
    start = torch.tensor([[0]])
    out0, dec_blocks = block_outputs(model.decoder, lambda: model(
        encoder_outputs=(enc0.last_hidden_state,), decoder_input_ids=start, output_hidden_states=True,
        use_cache=False))
    d["decoder_hidden_states"] = [r7(h[0]) for h in out0.decoder_hidden_states]
    d["decoder_block_outputs"] = [r7(h[0]) for h in dec_blocks]
    d["step0_logits_0"] = r7(out0.logits[0, 0])

    # Step-0 logits for the padded batch.
    out = model(input_ids=ids, attention_mask=mask, decoder_input_ids=torch.zeros((len(INPUTS), 1), dtype=torch.long),
                use_cache=False)
    d["step0_logits"] = [r7(out.logits[i, 0]) for i in range(len(INPUTS))]
    # How far HF's own fp32 logits are from an fp64 run of the same weights: the noise floor of any fp32
    # implementation (summation order), used by the C++ tests as a tolerance floor next to 1e-4.
    import copy
    m64 = copy.deepcopy(model).double()
    out64 = m64(input_ids=ids, attention_mask=mask,
                decoder_input_ids=torch.zeros((len(INPUTS), 1), dtype=torch.long), use_cache=False)
    d["step0_logits_fp32_error"] = float((out.logits[:, 0].double() - out64.logits[:, 0]).abs().max())
    del m64

    # generate() variants on the padded batch.
    runs = {
        "greedy": dict(num_beams=1),
        "greedy_min": dict(num_beams=1, min_new_tokens=10),
        "beam4": dict(num_beams=4, length_penalty=1.0, early_stopping=False),
        "beam4_lp": dict(num_beams=4, length_penalty=0.6, early_stopping=True),
    }
    for key, kw in runs.items():
        gkw, gout, seqs = run_generate(model, ids, mask, **kw)
        entry = {"generate_kwargs": gkw, "ids": seqs}
        if kw["num_beams"] > 1:
            entry["scores"] = r7(gout.sequences_scores)
        else:
            # Sum of log_softmax(raw logits) of the chosen tokens (min_new_tokens masking not applied).
            scores = []
            for i, s in enumerate(seqs):
                lp = [torch.log_softmax(gout.logits[t][i], -1)[tok_id].item() for t, tok_id in enumerate(s)]
                scores.append(sum(lp))
            entry["scores"] = r7(scores)
            # Smallest gap between the chosen token's processed score and the runner-up, per sequence: how close
            # greedy came to a tie (a port with small numeric drift may flip a choice whose margin is tiny).
            margins = []
            for i, s in enumerate(seqs):
                gaps = [float(torch.topk(gout.scores[t][i], 2).values.diff().abs()) for t in range(len(s))]
                margins.append(min(gaps))
            entry["min_margin"] = r7(margins)
        entry["text"] = [tok.decode(s, skip_special_tokens=True) for s in seqs]
        d[key] = entry

    # Greedy per-step logits for input 0, decoded alone without a cache; must agree with the batched generate().
    ids_g0, steps = greedy_manual(model, ids0, MAX_NEW_TOKENS)
    assert ids_g0 == d["greedy"]["ids"][0], (ids_g0, d["greedy"]["ids"][0])
    d["step_logits_greedy_0"] = [r7(lg) for lg in steps]
    if name in MODELS:  # the bf16/f16 copies round the weights and may lose the early EOS: not checked
        check_fixture_sanity(d)

    with open(os.path.join(folder, "golden.json"), "w", encoding="utf-8") as f:
        json.dump(d, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"[dumps] {name}: greedy lengths {[len(s) for s in d['greedy']['ids']]}, "
          f"beam4 {[len(s) for s in d['beam4']['ids']]}, beam4_lp {[len(s) for s in d['beam4_lp']['ids']]}, "
          f"greedy_min {[len(s) for s in d['greedy_min']['ids']]}")


def check_fixture_sanity(d):
    g = d["greedy"]["ids"]
    assert any(EOS_ID in s and len(s) < MAX_NEW_TOKENS for s in g), "no early EOS in greedy"
    assert any(EOS_ID not in s for s in g), "every greedy sequence ended"
    for s in d["greedy_min"]["ids"]:
        assert EOS_ID not in s[:10]


def versions():
    import safetensors
    import sentencepiece
    import tokenizers
    return {"python": sys.version.split()[0], "torch": torch.__version__, "transformers": transformers.__version__,
            "tokenizers": tokenizers.__version__, "sentencepiece": sentencepiece.__version__,
            "safetensors": safetensors.__version__}


def make_dumps():
    for name in list(MODELS) + list(DTYPE_COPIES):
        make_dump(name)


# ----------------------------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("steps", nargs="*", default=["tokenizers", "models", "dumps", "tokenizer"],
                    help="subset of: tokenizers models dumps tokenizer (default: all)")
    ap.add_argument("--sroie", default=None, help="SROIE train.jsonl (only needed to (re)train the tokenizers)")
    ap.add_argument("--retrain-tokenizers", action="store_true", help="retrain spiece.model even if present")
    args = ap.parse_args()
    if "tokenizers" in args.steps:
        train_tokenizers(args.sroie, args.retrain_tokenizers)
    import_hf()
    torch.set_num_threads(1)
    if "models" in args.steps:
        build_models()
    if "dumps" in args.steps:
        make_dumps()
    if "tokenizer" in args.steps:
        make_tokenizer_goldens(MODELS, load_tokenizer)


if __name__ == "__main__":
    main()

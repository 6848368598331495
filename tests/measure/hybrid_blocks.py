"""The mixers of the 2025-2026 hybrid families, written op for op as transformers' torch fallbacks
run them (no flash-linear-attention, causal-conv1d or mamba_ssm installed), for
saved_tensors.py: what autograd saves depends on the exact ops.

- Qwen3.5 (`qwen3_5`): Qwen3_5GatedDeltaNet with the torch causal_conv1d_fn and
  torch_chunk_gated_delta_rule of transformers main after PR #47625 (merged 2026-08-10; read at
  modeling_qwen3_5.py 009e78d6): q and k repeated to the value heads inside the rule, cast to
  fp32 and l2-normalised there, the UT system solved with torch.linalg.solve_triangular, decays
  applied once, one state per chunk. Qwen3_5RMSNormGated (norm, weight, SiLU gate, in fp32).
  Decoder layers as Qwen3_5DecoderLayer: Qwen3_5RMSNorm ((1 + weight), Gemma's ops), mixer,
  residual, post-attention norm, SiLU-gated MLP, residual.
- Qwen3.5's full-attention layers: Qwen3_5Attention (same file): q_proj to the query and the
  output gate, q_norm / k_norm (Qwen3_5RMSNorm over head_dim), the partial rotation (a quarter
  of head_dim; text positions make the multimodal rotation the plain one), the attention
  (sdpa as saved_tensors.py emulates it), the output times sigmoid(gate), o_proj.
- Nemotron-H (`nemotron_h`): NemotronHMamba2Mixer.torch_forward (modeling_nemotron_h.py
  008d9e95): conv1d + SiLU, softplus/clamp of dt, the naive chunked SSD scan in fp32 (segment
  sums, G, M, Y_diag, chunk states, Y_off, D residual), Zamba2RMSNormGated (gate first, grouped
  norm, in fp32), out_proj on the cast back. NemotronHBlock: norm, mixer, residual (one norm a
  block, no MLP in a Mamba block).

Only the layer kinds above are built: every layer of a measured model is of one kind, so that
the middle block is that kind's block.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

HYBRID_FAMILIES = ("qwen3_5", "nemotron_h")


def _st():
    """saved_tensors.py, imported when a model is built (it imports this module itself): its
    norms, gated MLP and rotate_half are the ops these families share with the others.
    Qwen3_5RMSNorm is Gemma's (1 + weight, in fp32), NemotronHRMSNorm Llama's."""
    import saved_tensors
    return saved_tensors


class HybridScenarioError(Exception):
    pass


def _need(cond, field, msg):
    if not cond:
        raise HybridScenarioError(f"{field}: {msg}")


def read_fields(s, m):
    """Sets the hybrid fields of a Spec from the resolved model dict and checks that they are
    what the family's code builds."""
    fam = s.family
    s.layer_types = list(m.get("layer_types") or [])
    _need(len(s.layer_types) == s.layers, "model.layer_types", "one entry per layer")
    kinds = {"qwen3_5": ("linear_attention", "full_attention"), "nemotron_h": ("mamba",)}[fam]
    kind = s.layer_types[0] if s.layer_types else kinds[0]
    _need(kind in kinds and all(t == kind for t in s.layer_types), "model.layer_types",
          f"the {fam} models measured here have layers of one kind, one of {', '.join(kinds)}")
    s.hybrid_kind = kind
    if kind == "full_attention":
        _need(bool(m.get("attention_output_gate")), "model.attention_output_gate",
              "Qwen3.5's attention layers gate their output")
        _need(s.attention == "sdpa", "training.attention", "Qwen3.5's attention layers are measured with sdpa")
    s.mlp_types = list(m.get("mlp_types") or [])
    want_mlp = "dense" if fam == "qwen3_5" else "none"
    _need(all(t == want_mlp for t in s.mlp_types), "model.mlp_types",
          f"{fam}'s {kind} layers here have " + ("a dense MLP" if want_mlp == "dense" else "no MLP"))
    s.hidden_act = m.get("hidden_act", "silu")
    s.norms_per_layer = int(m.get("norms_per_layer", 2))
    _need(s.norms_per_layer == (2 if fam == "qwen3_5" else 1), "model.norms_per_layer",
          f"{fam} has {2 if fam == 'qwen3_5' else 1} norms per block")
    s.moe, s.mla, s.attention_sinks, s.sliding_window = None, None, False, 0
    if fam == "qwen3_5" and kind == "full_attention":
        s.linear = None
    elif fam == "qwen3_5":
        la = m.get("linear_attention") or {}
        s.linear = {k: int(la[k]) for k in ("key_heads", "value_heads", "key_head_dim",
                                            "value_head_dim", "conv_kernel")}
        _need(s.linear["value_heads"] % s.linear["key_heads"] == 0, "model.linear_attention",
              "value_heads must be a multiple of key_heads")
    else:
        mb = m.get("mamba") or {}
        s.mamba = {k: int(mb[k]) for k in ("heads", "head_dim", "state_size", "groups",
                                           "conv_kernel", "chunk_size")}
        s.mamba["conv_bias"] = bool(mb.get("conv_bias", True))
        s.mamba["proj_bias"] = bool(mb.get("proj_bias", False))
        _need(s.mamba["heads"] % s.mamba["groups"] == 0, "model.mamba.groups", "must divide heads")
    _need(s.precision in ("bf16", "fp32"), "training.precision",
          "the hybrid blocks are measured in bf16 and fp32 (autocast's op lists not emulated here)")
    _need(s.finetune == "full", "training.finetune.method", "full fine-tunes only here")


# ------------------------------------------------------------------------------------------
# Qwen3.5 Gated DeltaNet, torch fallback
# ------------------------------------------------------------------------------------------

def causal_conv1d_fn_torch(hidden_states, weight, bias=None, activation=None):
    """modeling_qwen3_5.causal_conv1d_fn (hub fallback): conv1d padded by kernel - 1, the first
    seq_len outputs, SiLU, cast back."""
    _, hidden_size, seq_len = hidden_states.shape
    padding = weight.shape[-1] - 1
    out = F.conv1d(hidden_states.to(weight.dtype), weight=weight.unsqueeze(1), bias=bias,
                   padding=padding, groups=hidden_size)[:, :, :seq_len]
    if activation is not None:
        out = F.silu(out)
    return out.to(hidden_states.dtype)


def l2norm(x, dim=-1, eps=1e-6):
    inv_norm = torch.rsqrt((x * x).sum(dim=dim, keepdim=True) + eps)
    return x * inv_norm


def torch_chunk_gated_delta_rule(query, key, value, g, beta, chunk_size=64,
                                 use_qk_l2norm_in_kernel=True):
    """torch_chunk_gated_delta_rule after PR #47625 (no initial state, no final state kept)."""
    initial_dtype = query.dtype
    batch_size, sequence_length, _, k_head_dim = key.shape
    num_v_heads, v_head_dim = value.shape[-2:]
    if key.shape[2] != num_v_heads:
        query, key = (x.repeat_interleave(num_v_heads // x.shape[2], dim=2) for x in (query, key))
    recurrent_state_shape = (batch_size, num_v_heads, k_head_dim, v_head_dim)
    padded_output_shape = (batch_size, num_v_heads, -1, v_head_dim)
    decay = g
    query, key, value, beta, decay = [
        x.transpose(1, 2).to(torch.float32, memory_format=torch.contiguous_format)
        for x in (query, key, value, beta, decay)
    ]
    if use_qk_l2norm_in_kernel:
        query = l2norm(query, dim=-1, eps=1e-6)
        key = l2norm(key, dim=-1, eps=1e-6)
    scaling = query.shape[-1] ** -0.5
    query = query * scaling
    pad_size = (chunk_size - sequence_length % chunk_size) % chunk_size
    query, key, value = (F.pad(x, (0, 0, 0, pad_size)) for x in (query, key, value))
    beta, decay = (F.pad(x, (0, pad_size)) for x in (beta, decay))
    total_sequence_length = sequence_length + pad_size
    num_chunks = total_sequence_length // chunk_size
    v_beta = value * beta.unsqueeze(-1)
    k_beta = key * beta.unsqueeze(-1)
    query, key, k_beta, v_beta = [
        x.reshape(x.shape[0], x.shape[1], -1, chunk_size, x.shape[-1]) for x in (query, key, k_beta, v_beta)
    ]
    decay = decay.reshape(decay.shape[0], decay.shape[1], -1, chunk_size)
    strictly_upper_mask = torch.ones(chunk_size, chunk_size, dtype=torch.bool).triu(1)
    cum_decay = decay.cumsum(dim=3)
    pairwise_decay = cum_decay.unsqueeze(4) - cum_decay.unsqueeze(3)
    pairwise_decay = pairwise_decay.masked_fill(strictly_upper_mask, float("-inf"))
    pairwise_decay = pairwise_decay.exp()
    ut_system = (k_beta @ key.transpose(-1, -2)) * pairwise_decay
    intra_chunk_attn = (query @ key.transpose(-1, -2)) * pairwise_decay
    decayed_k_beta = k_beta * cum_decay.exp().unsqueeze(-1)
    new_values = torch.linalg.solve_triangular(ut_system, v_beta, upper=False, unitriangular=True)
    k_cumdecay = torch.linalg.solve_triangular(ut_system, decayed_k_beta, upper=False, unitriangular=True)
    last_recurrent_state = torch.zeros(recurrent_state_shape, dtype=new_values.dtype)
    core_attn_out = torch.zeros_like(new_values)
    query = query * cum_decay.exp().unsqueeze(-1)
    key = key * (cum_decay[..., -1:] - cum_decay).exp().unsqueeze(-1)
    chunk_decay = cum_decay[..., -1].exp()[..., None, None]
    for i in range(num_chunks):
        v_new = new_values[:, :, i] - k_cumdecay[:, :, i] @ last_recurrent_state
        inter_chunk_attn = query[:, :, i] @ last_recurrent_state
        core_attn_out[:, :, i] = inter_chunk_attn + intra_chunk_attn[:, :, i] @ v_new
        last_recurrent_state = last_recurrent_state * chunk_decay[:, :, i] + key[:, :, i].transpose(-1, -2) @ v_new
    core_attn_out = core_attn_out.reshape(padded_output_shape)
    core_attn_out = core_attn_out[:, :, :sequence_length]
    return core_attn_out.transpose(1, 2).to(initial_dtype, memory_format=torch.contiguous_format)


class Qwen35RMSNormGated(nn.Module):
    """Qwen3_5RMSNormGated: fp32 norm, weight times the cast back, times SiLU(gate) in fp32."""

    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states, gate):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        hidden_states = self.weight * hidden_states.to(input_dtype)
        hidden_states = hidden_states * F.silu(gate.to(torch.float32))
        return hidden_states.to(input_dtype)


class Qwen35GatedDeltaNet(nn.Module):
    """Qwen3_5GatedDeltaNet.forward without a cache, torch fallbacks (repeat_qk_heads is False
    without flash-linear-attention: the rule repeats q and k itself)."""

    def __init__(self, s):
        super().__init__()
        la = s.linear
        self.num_v_heads, self.num_k_heads = la["value_heads"], la["key_heads"]
        self.head_k_dim, self.head_v_dim = la["key_head_dim"], la["value_head_dim"]
        self.key_dim = self.head_k_dim * self.num_k_heads
        self.value_dim = self.head_v_dim * self.num_v_heads
        self.conv_dim = self.key_dim * 2 + self.value_dim
        self.conv1d = nn.Conv1d(self.conv_dim, self.conv_dim, bias=False, kernel_size=la["conv_kernel"],
                                groups=self.conv_dim, padding=la["conv_kernel"] - 1)
        self.dt_bias = nn.Parameter(torch.ones(self.num_v_heads))
        self.A_log = nn.Parameter(torch.log(torch.empty(self.num_v_heads).uniform_(0.01, 16)))
        self.norm = Qwen35RMSNormGated(self.head_v_dim)
        self.out_proj = nn.Linear(self.value_dim, s.hidden, bias=False)
        self.in_proj_qkv = nn.Linear(s.hidden, self.conv_dim, bias=False)
        self.in_proj_z = nn.Linear(s.hidden, self.value_dim, bias=False)
        self.in_proj_b = nn.Linear(s.hidden, self.num_v_heads, bias=False)
        self.in_proj_a = nn.Linear(s.hidden, self.num_v_heads, bias=False)

    def forward(self, hidden_states):
        batch_size, seq_len, _ = hidden_states.shape
        mixed_qkv = self.in_proj_qkv(hidden_states).transpose(1, 2)
        z = self.in_proj_z(hidden_states).reshape(batch_size, seq_len, -1, self.head_v_dim)
        b = self.in_proj_b(hidden_states)
        a = self.in_proj_a(hidden_states)
        mixed_qkv = causal_conv1d_fn_torch(mixed_qkv, self.conv1d.weight.squeeze(1), self.conv1d.bias,
                                           activation="silu")
        mixed_qkv = mixed_qkv.transpose(1, 2)
        query, key, value = torch.split(mixed_qkv, [self.key_dim, self.key_dim, self.value_dim], dim=-1)
        query = query.reshape(batch_size, seq_len, -1, self.head_k_dim)
        key = key.reshape(batch_size, seq_len, -1, self.head_k_dim)
        value = value.reshape(batch_size, seq_len, -1, self.head_v_dim)
        beta = b.sigmoid()
        g = -self.A_log.float().exp() * F.softplus(a.float() + self.dt_bias)
        core_attn_out = torch_chunk_gated_delta_rule(query, key, value, g=g, beta=beta)
        core_attn_out = core_attn_out.reshape(-1, self.head_v_dim)
        z = z.reshape(-1, self.head_v_dim)
        core_attn_out = self.norm(core_attn_out, z)
        core_attn_out = core_attn_out.reshape(batch_size, seq_len, -1)
        return self.out_proj(core_attn_out)


# ------------------------------------------------------------------------------------------
# Nemotron-H Mamba2, torch_forward
# ------------------------------------------------------------------------------------------

def pad_tensor_by_size(input_tensor, pad_size):
    pad_shape = (0, 0, 0, 0, 0, pad_size, 0, 0) if len(input_tensor.shape) == 4 else (0, 0, 0, pad_size, 0, 0)
    return F.pad(input_tensor, pad_shape, mode="constant", value=0)


def reshape_into_chunks(input_tensor, pad_size, chunk_size):
    input_tensor = pad_tensor_by_size(input_tensor, pad_size)
    if len(input_tensor.shape) == 3:
        return input_tensor.reshape(input_tensor.shape[0], -1, chunk_size, input_tensor.shape[2])
    return input_tensor.reshape(input_tensor.shape[0], -1, chunk_size, input_tensor.shape[2],
                                input_tensor.shape[3])


def segment_sum(input_tensor):
    chunk_size = input_tensor.size(-1)
    input_tensor = input_tensor[..., None].expand(*input_tensor.size(), chunk_size)
    mask = torch.tril(torch.ones(chunk_size, chunk_size, dtype=torch.bool), diagonal=-1)
    input_tensor = input_tensor.masked_fill(~mask, 0)
    tensor_segsum = torch.cumsum(input_tensor, dim=-2)
    mask = torch.tril(torch.ones(chunk_size, chunk_size, dtype=torch.bool), diagonal=0)
    return tensor_segsum.masked_fill(~mask, -math.inf)


class Zamba2RMSNormGated(nn.Module):
    """Zamba2RMSNormGated: gate first (SiLU in fp32), RMS over groups, weight times the cast back
    to the input's dtype (fp32: the scan output is fp32)."""

    def __init__(self, hidden_size, group_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps
        self.group_size = group_size

    def forward(self, hidden_states, gate=None):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        if gate is not None:
            hidden_states = hidden_states * F.silu(gate.to(torch.float32))
        *prefix_dims, last_dim = hidden_states.shape
        group_count = last_dim // self.group_size
        hidden_states_group = hidden_states.view(*prefix_dims, group_count, self.group_size)
        variance = hidden_states_group.pow(2).mean(-1, keepdim=True)
        hidden_states_group = hidden_states_group * torch.rsqrt(variance + self.variance_epsilon)
        hidden_states = hidden_states_group.view(*prefix_dims, group_count * self.group_size)
        return self.weight * hidden_states.to(input_dtype)


class NemotronHMamba2Mixer(nn.Module):
    def __init__(self, s):
        super().__init__()
        mb = s.mamba
        self.num_heads, self.head_dim = mb["heads"], mb["head_dim"]
        self.ssm_state_size, self.n_groups = mb["state_size"], mb["groups"]
        self.chunk_size = mb["chunk_size"]
        self.intermediate_size = self.num_heads * self.head_dim
        self.conv_dim = self.intermediate_size + 2 * self.n_groups * self.ssm_state_size
        self.conv1d = nn.Conv1d(self.conv_dim, self.conv_dim, bias=mb["conv_bias"],
                                kernel_size=mb["conv_kernel"], groups=self.conv_dim,
                                padding=mb["conv_kernel"] - 1)
        projection_size = self.intermediate_size + self.conv_dim + self.num_heads
        self.in_proj = nn.Linear(s.hidden, projection_size, bias=mb["proj_bias"])
        self.dt_bias = nn.Parameter(torch.ones(self.num_heads))
        self.A_log = nn.Parameter(torch.log(torch.arange(1, self.num_heads + 1).float()))
        self.norm = Zamba2RMSNormGated(self.intermediate_size,
                                       group_size=self.intermediate_size // self.n_groups)
        self.D = nn.Parameter(torch.ones(self.num_heads))
        self.out_proj = nn.Linear(self.intermediate_size, s.hidden, bias=mb["proj_bias"])
        self.time_step_min = 0.001

    def forward(self, input_states):
        batch_size, seq_len, _ = input_states.shape
        dtype = input_states.dtype
        projected_states = self.in_proj(input_states)
        d_mlp = (projected_states.shape[-1] - 2 * self.intermediate_size
                 - 2 * self.n_groups * self.ssm_state_size - self.num_heads) // 2
        _, _, gate, hidden_states, dt = projected_states.split(
            [d_mlp, d_mlp, self.intermediate_size, self.conv_dim, self.num_heads], dim=-1)
        hidden_states = hidden_states.transpose(1, 2)
        hidden_states = F.silu(self.conv1d(hidden_states)[..., :seq_len].transpose(1, 2))
        hidden_states, B, C = torch.split(
            hidden_states, [self.intermediate_size, self.n_groups * self.ssm_state_size,
                            self.n_groups * self.ssm_state_size], dim=-1)
        A = -torch.exp(self.A_log.float())
        dt = F.softplus(dt + self.dt_bias)
        dt = torch.clamp(dt, self.time_step_min)
        hidden_states = hidden_states.reshape(batch_size, seq_len, -1, self.head_dim).float()
        B = B.reshape(batch_size, seq_len, -1, self.ssm_state_size).float()
        C = C.reshape(batch_size, seq_len, -1, self.ssm_state_size).float()
        B = B.repeat_interleave(self.num_heads // self.n_groups, dim=2, output_size=self.num_heads)
        C = C.repeat_interleave(self.num_heads // self.n_groups, dim=2, output_size=self.num_heads)
        pad_size = (self.chunk_size - seq_len % self.chunk_size) % self.chunk_size
        D_residual = self.D[..., None] * pad_tensor_by_size(hidden_states, pad_size)
        hidden_states = hidden_states * dt[..., None]
        A = A.to(hidden_states.dtype) * dt
        hidden_states, A, B, C = [reshape_into_chunks(t, pad_size, self.chunk_size) for t in (hidden_states, A, B, C)]
        A = A.permute(0, 3, 1, 2)
        A_cumsum = torch.cumsum(A, dim=-1)
        L = torch.exp(segment_sum(A))
        G_intermediate = C[:, :, :, None, :, :] * B[:, :, None, :, :, :]
        G = G_intermediate.sum(dim=-1)
        M_intermediate = G[..., None] * L.permute(0, 2, 3, 4, 1)[..., None]
        M = M_intermediate.sum(dim=-1)
        Y_diag = (M[..., None] * hidden_states[:, :, None]).sum(3)
        decay_states = torch.exp(A_cumsum[:, :, :, -1:] - A_cumsum)
        B_decay_contraction = B * decay_states.permute(0, 2, 3, 1)[..., None]
        states = (B_decay_contraction.permute(0, 1, 3, 2, 4)[..., None]
                  * hidden_states.permute(0, 1, 3, 2, 4)[..., None, :]).sum(dim=3).permute(0, 1, 2, 4, 3)
        previous_states = torch.zeros_like(states[:, :1])
        states = torch.cat([previous_states, states], dim=1)
        decay_chunk = torch.exp(segment_sum(F.pad(A_cumsum[:, :, :, -1], (1, 0))))
        states_permuted = states.permute(0, 2, 1, 3, 4)
        result = (decay_chunk[..., None, None] * states_permuted[:, :, None, ...]).sum(dim=2)
        new_states = result.permute(0, 2, 1, 3, 4)
        states = new_states[:, :-1]
        state_decay_out = torch.exp(A_cumsum)
        C_times_states = C[..., None, :] * states[:, :, None, ...]
        state_decay_out_permuted = state_decay_out.permute(0, 2, 3, 1)
        Y_off = C_times_states.sum(-1) * state_decay_out_permuted[..., None]
        y = Y_diag + Y_off
        y = y.reshape(batch_size, -1, self.num_heads, self.head_dim)
        y = y + D_residual
        if pad_size > 0:
            y = y[:, :seq_len, :, :]
        y = y.reshape(batch_size, seq_len, -1)
        scan_output = self.norm(y, gate)
        return self.out_proj(scan_output.to(dtype))


# ------------------------------------------------------------------------------------------
# Qwen3.5 gated attention
# ------------------------------------------------------------------------------------------

def apply_partial_rotary(q, k, cos, sin):
    """modeling_qwen3_5.apply_rotary_pos_emb: rotate the first rotary_dim of each head, keep
    the rest, concatenate."""
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    rotary_dim = cos.shape[-1]
    q_rot, q_pass = q[..., :rotary_dim], q[..., rotary_dim:]
    k_rot, k_pass = k[..., :rotary_dim], k[..., rotary_dim:]
    rotate_half = _st().rotate_half
    q_embed = (q_rot * cos) + (rotate_half(q_rot) * sin)
    k_embed = (k_rot * cos) + (rotate_half(k_rot) * sin)
    return torch.cat([q_embed, q_pass], dim=-1), torch.cat([k_embed, k_pass], dim=-1)


class PartialRotary(nn.Module):
    """Qwen3_5TextRotaryEmbedding for text positions: rotary_dim = head_dim / 4 (partial_rotary_factor
    0.25), cat(freqs, freqs), cast to the input's dtype, no gradient."""

    def __init__(self, head_dim, base=10000000.0):
        super().__init__()
        dim = head_dim // 4
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        freqs = (self.inv_freq[None, :, None].float() @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


class Qwen35Attention(nn.Module):
    def __init__(self, s, attention_fn):
        super().__init__()
        self.s = s
        self.head_dim = s.head_dim
        self.attention_fn = attention_fn
        self.q_proj = nn.Linear(s.hidden, s.heads * s.head_dim * 2, bias=False)
        self.k_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=False)
        self.v_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=False)
        self.o_proj = nn.Linear(s.heads * s.head_dim, s.hidden, bias=False)
        self.q_norm = _st().GemmaRMSNorm(s.head_dim)
        self.k_norm = _st().GemmaRMSNorm(s.head_dim)
        self.scaling = s.head_dim ** -0.5

    def first_linear_weight_dtype(self):
        return self.q_proj.weight.dtype

    def forward(self, hidden_states, position_embeddings):
        input_shape = hidden_states.shape[:-1]
        hidden_shape = (*input_shape, -1, self.head_dim)
        query_states, gate = torch.chunk(
            self.q_proj(hidden_states).view(*input_shape, -1, self.head_dim * 2), 2, dim=-1)
        gate = gate.reshape(*input_shape, -1)
        query_states = self.q_norm(query_states.view(hidden_shape)).transpose(1, 2)
        key_states = self.k_norm(self.k_proj(hidden_states).view(hidden_shape)).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        cos, sin = position_embeddings
        query_states, key_states = apply_partial_rotary(query_states, key_states, cos, sin)
        attn_output = self.attention_fn(self, query_states, key_states, value_states, None, 0.0,
                                        self.scaling)
        attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        attn_output = attn_output * torch.sigmoid(gate)
        return self.o_proj(attn_output)


# ------------------------------------------------------------------------------------------
# Layers and the causal LM
# ------------------------------------------------------------------------------------------

class HybridLayer(nn.Module):
    """Qwen3_5DecoderLayer (linear-attention layers) or NemotronHBlock (Mamba blocks)."""

    def __init__(self, s, layer_idx, attention_fn):
        super().__init__()
        self.family = s.family
        self.kind = s.hybrid_kind
        if s.family == "qwen3_5":
            self.input_layernorm = _st().GemmaRMSNorm(s.hidden)
            if self.kind == "full_attention":
                self.self_attn = Qwen35Attention(s, attention_fn)
            else:
                self.linear_attn = Qwen35GatedDeltaNet(s)
            self.post_attention_layernorm = _st().GemmaRMSNorm(s.hidden)
            self.mlp = _st().GatedMLP(s, s.hidden, s.ffn)  # Qwen3_5MLP: SiLU-gated
        else:
            self.norm = _st().LlamaRMSNorm(s.hidden)
            self.mixer = NemotronHMamba2Mixer(s)

    def forward(self, hidden_states, position_embeddings=None):
        if self.family == "nemotron_h":
            residual = hidden_states
            hidden_states = self.norm(hidden_states.to(dtype=self.norm.weight.dtype))
            hidden_states = self.mixer(hidden_states)
            return residual + hidden_states
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        if self.kind == "full_attention":
            hidden_states = self.self_attn(hidden_states, position_embeddings)
        else:
            hidden_states = self.linear_attn(hidden_states)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        return residual + hidden_states


class HybridCausalLM(nn.Module):
    """Qwen3_5ForCausalLM / NemotronHForCausalLM without attention layers: embeddings, layers
    (GradientCheckpointingLayer), final norm, lm_head, ForCausalLMLoss."""

    def __init__(self, s, run_layer, region, loss_fn, attention_fn=None):
        super().__init__()
        self.s = s
        self._run_layer, self._region, self._loss_fn = run_layer, region, loss_fn
        self.embed_tokens = nn.Embedding(s.vocab, s.hidden)
        self.layers = nn.ModuleList(HybridLayer(s, i, attention_fn) for i in range(s.layers))
        self.rotary_emb = PartialRotary(s.head_dim) if s.hybrid_kind == "full_attention" else None
        self.norm = _st().GemmaRMSNorm(s.hidden) if s.family == "qwen3_5" else _st().LlamaRMSNorm(s.hidden)
        self.lm_head = nn.Linear(s.hidden, s.vocab, bias=False)
        if s.tied:
            self.lm_head.weight = self.embed_tokens.weight

    def input_embeddings(self):
        return self.embed_tokens

    def forward(self, input_ids, labels):
        s = self.s
        with self._region("embed"):
            hidden_states = self.embed_tokens(input_ids)
            kwargs = {}
            if self.rotary_emb is not None:
                position_ids = torch.arange(hidden_states.shape[1]).unsqueeze(0)
                kwargs["position_embeddings"] = self.rotary_emb(hidden_states, position_ids)
        for i, layer in enumerate(self.layers):
            with self._region(f"layer{i}"):
                hidden_states = self._run_layer(layer, s.recompute == "full", self.training, hidden_states,
                                                **kwargs)
        with self._region("final"):
            hidden_states = self.norm(hidden_states)
        with self._region("head"):
            logits = self.lm_head(hidden_states)
        with self._region("loss"):
            loss = self._loss_fn(logits, labels, s.vocab)
        return loss, logits


def describe(s, torch_version):
    what = {"qwen3_5": "Qwen3_5Attention (output gate, partial rotation; sdpa emulated as for the "
                       "v4.57 families)" if s.hybrid_kind == "full_attention" else "Qwen3_5GatedDeltaNet with transformers' torch fallbacks (causal_conv1d_fn, "
                       "torch_chunk_gated_delta_rule after PR #47625: solve_triangular, one state per "
                       "64-token chunk), Qwen3_5RMSNormGated",
            "nemotron_h": "NemotronHMamba2Mixer.torch_forward (naive chunked SSD scan in fp32, "
                          "Zamba2RMSNormGated)"}[s.family]
    notes = [f"CPU, torch {torch_version}; {what}; every layer of this kind; loss as ForCausalLMLoss"]
    if s.recompute == "full":
        notes.append("GradientCheckpointingLayer: each block under torch.utils.checkpoint.checkpoint"
                     "(use_reentrant=True)")
    return "; ".join(notes)

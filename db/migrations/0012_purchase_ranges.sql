-- Schema version 12: purchase prices for data-centre GPUs from dated public
-- price ranges. Data only; nothing in this file changes the schema.
--
-- Conventions (those of 0005_seed_gpus.sql section 4 and 0011_prices.sql,
-- with one change):
-- * Prices go into gpu_prices only; its triggers (0003) copy the latest row of
--   each kind into gpus.purchase_price_*, so the catalog entry and its price
--   history stay consistent.
-- * Purchase: USD per GPU. Vendors publish no list price for these parts, so
--   the figure is the MIDPOINT of the per-GPU price range that one dated, named
--   public source reports (or that source's single figure), and the source
--   text gives the range and the arithmetic. This replaces, for purchase prices
--   only, 0011's rule that a range is not a price. Sources dated by month are
--   dated the first of the month. A per-server or per-rack price is never
--   divided into a per-GPU price unless the source itself gives the GPU share.
-- * The source must name the product so that it matches the catalog entry:
--   the form factor where the catalog has several (SXM, PCIe, NVL). A source
--   that names only "A100 80GB" is matched to the entry the catalog resolves
--   that name to (gpu_aliases: a100-80gb -> a100-sxm-80gb).
-- * Prefer the most recent dated source; third-party sources say so.
-- * A price is seeded only for a GPU with no purchase price yet: prices already
--   in the catalog and any a user added through the API are kept.
--
-- Left without a purchase price (no dated, named per-GPU figure found):
-- h100-nvl-94gb, a100-sxm-40gb, a100-pcie-80gb, a100-pcie-40gb, l4, t4, a10,
-- mi325x, mi250x, v100-sxm-32gb, v100-sxm-16gb (only undated figures found,
-- e.g. chipversus.com MSRPs, huggingface.co/hardware MSRPs, runlocalai.co
-- retail prices, or figures that do not name the form factor); gb200 (only
-- per-rack GB200 NVL72 prices of $2-3 million and per-superchip figures, no
-- per-GPU share given by the source); gaudi2 (Intel's Computex 2024 list price
-- is for a kit of 8 accelerators with a baseboard, $65,000, and no source found
-- gives the per-accelerator share).

INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source)
SELECT v.column1, v.column2, v.column3, v.column4, v.column5 FROM (VALUES
('h100-sxm-80gb', 'purchase', 33500, '2026-03-01',
 'Midpoint of $27,000-$40,000 per H100 80GB SXM GPU reported by the AI Infrastructure Index (Alpha One Index, third-party), "Buy vs. Rent GPU Infrastructure: Decision Framework for AI Teams", last updated March 2026 (github.com/alpha-one-index/ai-infra-index, specs/buy-vs-rent-decision-framework.md: hardware cost breakdown row "8x H100 80GB SXM GPUs $216,000-$320,000, $27K-$40K per GPU"; the table names GMI Cloud 2025, Intuition Labs Feb 2026 and Lenovo May 2025 as its sources): (27,000 + 40,000) / 2 = 33,500. The same index lists an MSRP of ~$30,000 in its GPU specifications (2026-02-28)'),
('h100-pcie-80gb', 'purchase', 25000, '2026-02-28',
 'Single figure of ~$25,000 per H100 PCIe GPU (MSRP column) reported by the AI Infrastructure Index (Alpha One Index, third-party), "AI Data Center GPU Specifications", dateModified 2026-02-28 (alpha-one-index.github.io/ai-infra-index/specs/gpu-specifications.html, H100 SXM vs H100 PCIe table: MSRP ~$30,000 / ~$25,000; the index does not say where its MSRPs come from): a single figure, so the midpoint is the figure, 25,000'),
('h200-sxm-141gb', 'purchase', 35000, '2026-02-28',
 'Single figure of $35,000 per H200 SXM GPU (msrp_usd) reported by the AI Infrastructure Index (Alpha One Index, third-party), data/gpu-specs.json last_updated 2026-02-28 (github.com/alpha-one-index/ai-infra-index; llms-full.txt of 2026-03-01: "MSRP: ~$35,000"; the index does not say where its MSRPs come from): a single figure, so the midpoint is the figure, 35,000'),
('b200', 'purchase', 40000, '2026-02-28',
 'Single figure of $40,000 per B200 (SXM) GPU (msrp_usd) reported by the AI Infrastructure Index (Alpha One Index, third-party), data/gpu-specs.json last_updated 2026-02-28 (github.com/alpha-one-index/ai-infra-index; llms-full.txt of 2026-03-01: "MSRP: ~$40,000"; the index does not say where its MSRPs come from): a single figure, so the midpoint is the figure, 40,000. An older range: CNBC 2024-10-03, Blackwell "expected to cost between $30,000 and $40,000 per unit", midpoint 35,000'),
('a100-sxm-80gb', 'purchase', 11500, '2026-03-20',
 'Midpoint of $8,000-$15,000 per new A100 80GB GPU reported by Tool Discovery (aitooldiscovery.com, third-party), "NVIDIA A100 GPU: Specs, Price, and Performance in 2026", published 20 March 2026 (www.aitooldiscovery.com/ai-infra/nvidia-a100-specs-price: "New A100 80GB units cost $8,000-$15,000 in 2026"; the page quotes its specs for the A100 80GB SXM4, and the catalog resolves a100-80gb to this entry): (8,000 + 15,000) / 2 = 11,500. The AI Infrastructure Index lists an A100 SXM 80GB MSRP of $15,000 (2026-02-28)'),
('l40s', 'purchase', 8000, '2026-02-28',
 'Single figure of $8,000 per L40S (PCIe) GPU (msrp_usd) reported by the AI Infrastructure Index (Alpha One Index, third-party), data/gpu-specs.json last_updated 2026-02-28 (github.com/alpha-one-index/ai-infra-index; the index does not say where its MSRPs come from): a single figure, so the midpoint is the figure, 8,000'),
('mi300x', 'purchase', 15000, '2026-02-28',
 'Single figure of $15,000 per AMD Instinct MI300X (OAM) GPU (msrp_usd) reported by the AI Infrastructure Index (Alpha One Index, third-party), data/gpu-specs.json last_updated 2026-02-28 (github.com/alpha-one-index/ai-infra-index; llms-full.txt of 2026-03-01: "MSRP: ~$15,000"; the index does not say where its MSRPs come from): a single figure, so the midpoint is the figure, 15,000')) AS v
 WHERE EXISTS (SELECT 1 FROM gpus g WHERE g.id = v.column1)
   AND NOT EXISTS (SELECT 1 FROM gpu_prices p WHERE p.gpu_id = v.column1 AND p.kind = v.column2);

-- Schema version 11: more dated prices for the accelerator catalog. Data only;
-- nothing in this file changes the schema.
--
-- Conventions (those of 0005_seed_gpus.sql, section 4):
-- * Prices go into gpu_prices only; its triggers (0003) copy the latest row of
--   each kind into gpus.price_* / purchase_price_*, so the catalog entry and
--   its price history stay consistent.
-- * On-demand: USD per GPU-hour from one named provider list price. Where the
--   provider prices an instance of several GPUs, the source text gives the
--   instance price and the division. Purchase: USD per GPU; where the only
--   product is a whole system, the source says what the price includes.
-- * One dated source per figure, the figure and the arithmetic in the source
--   text. A source that states no date is dated the day this file was written
--   (2026-11-24) and says so.
-- * A price is seeded only for a GPU with no price of that kind yet: prices
--   already in the catalog (0002-0005) and any a user added through the API
--   are kept.
-- * No price where only a range was found (ranges across providers, analyst
--   ranges such as "$30,000-$40,000" for a B200 or "$25,000-$40,000" for an
--   H100 are not prices), and none where the rental unit or the product could
--   not be matched to the catalog entry.
--
-- Left without an on-demand price (no dated single-provider figure found):
-- a100-pcie-40gb, v100-sxm-16gb, v100-sxm-32gb (AWS p3.2xlarge $3.06/h and
-- p3dn.24xlarge appear only in undated test fixtures and code comments),
-- rtx-3090, rtx-a6000, rtx-6000-ada (RunPod publishes only per-second
-- serverless prices for pools of several GPU models, e.g. "L4, A5000, 3090"),
-- gh200, gh200-144gb, gaudi2, gaudi3, mi250x. Not rentable as cloud
-- instances: gb10 (DGX Spark desktop), jetson-agx-thor (edge module).

INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source)
SELECT v.column1, v.column2, v.column3, v.column4, v.column5 FROM (VALUES
-- On-demand.
('a100-sxm-40gb', 'on_demand', 1.48, '2026-05-07',
 'Lambda 1x A100 40GB instance, $1.48/h = $1.48 per GPU-hour (techbytes.app serverless GPU pricing matrix, "Prices verified on May 7, 2026 from official vendor pricing"; the page does not name the form factor, and Lambda''s 1x A100 40 GB instance type is gpu_1x_a100_sxm4 in the SkyPilot Lambda catalog, skypilot-org/skypilot-catalog catalogs/v7/lambda/vms.csv, so it is recorded for the SXM4 40GB part)'),
('a100-pcie-80gb', 'on_demand', 1.48, '2026-06-03',
 'Spheron A100 80GB PCIe on-demand $1.48/h, 1 GPU = $1.48 per GPU-hour (spheron.network/blog/gpu-spot-instance-arbitrage-2026: "fetched live from the Spheron API (GET https://app.spheron.ai/api/gpu-offers) on 2026-06-03"; spot $1.19/h)'),
('rtx-4090', 'on_demand', 0.55, '2026-05-25',
 'Spheron RTX 4090 on-demand "From $0.55/hr", 1 GPU = $0.55 per GPU-hour (spheron.network/blog/nvidia-h100-vs-rtx-4090-ai-training-inference-2026, "Pricing as of 25 May 2026"; the lowest listed offer)'),
('gb200', 'on_demand', 4.54, '2026-03-17',
 'Spheron GB200 on-demand $9.08/h per GB200 Superchip (1 Grace CPU + 2 Blackwell GPUs, rented by the superchip, not per GPU) / 2 GPUs = $4.54 per GPU-hour (spheron.network/blog/nvidia-h200-vs-b200-vs-gb200: "Spheron on-demand pricing as of 17 March 2026")'),
('mi325x', 'on_demand', 1.95, '2026-05-18',
 'TensorWave MI325X $1.95 per GPU-hour, quoted among the AMD GPUs rentable on demand at neoclouds (cliffcenter.com/research/amd-inference-economics, research note dated 2026-05-18; third-party)'),
-- Purchase.
('gb10', 'purchase', 3999, '2025-10-15',
 'NVIDIA DGX Spark (one GB10 superchip with 128 GB unified memory) priced at $3,999, launched October 15, 2025 (Benzinga 2025-10-17; aiwiki.ai NVIDIA Digits: $3,000 when announced at CES 2025, $3,999 at retail launch) = $3,999 per GPU for the whole desktop system (CPU, memory and storage included)'),
('rtx-a6000', 'purchase', 4649, '2026-11-24',
 'NVIDIA RTX A6000 MSRP $4,649 (chipversus.com GPU database, MSRP column of its value ranking as shown on chipversus.com/hardware/gpu/l4, third-party; undated source; dated when recorded)'),
('rtx-6000-ada', 'purchase', 6799, '2026-11-24',
 'NVIDIA RTX 6000 Ada Generation MSRP $6,799 (chipversus.com GPU database, MSRP column of its value ranking as shown on chipversus.com/hardware/gpu/l4, third-party; US retailers listed the card at $7,378 to $8,210 before its December 2022 launch, tomshardware.fr 2022-11; undated source; dated when recorded)')) AS v
 WHERE EXISTS (SELECT 1 FROM gpus g WHERE g.id = v.column1)
   AND NOT EXISTS (SELECT 1 FROM gpu_prices p WHERE p.gpu_id = v.column1 AND p.kind = v.column2);

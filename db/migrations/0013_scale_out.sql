-- Schema version 13: each GPU's scale-out (inter-node) network bandwidth, which
-- the plan search uses for data-parallel traffic between nodes instead of its
-- board-class defaults (core/src/plan.c, group_link).
--
-- scale_out_gb_s is per GPU and one direction, in GB/s (10^9 bytes per second,
-- not bits: 400 Gb/s = 50 GB/s): the compute-fabric bandwidth of the vendor's
-- reference node divided by its GPUs. Storage and management ports are not
-- counted. NULL where no reference node with a stated network was found (the
-- PCIe cards, whose servers vary, among them): the search then keeps its
-- defaults. scale_out_source names the node and gives the arithmetic; like
-- interconnect_source (0003), it is required whenever the number is set, by the
-- triggers below.
--
-- Seeded only into rows still at revision 1 (never changed through the API)
-- and still carrying the seed's name, so a user's own entry under a seed id
-- keeps what the user wrote.
--
-- Left NULL: mi325x (AMD's MI325X platform states the eight-OAM board, not the
-- server's NICs, and no reference MI325X server with a stated network was
-- found), gh200-144gb (the GH200 NVL2 pair of this entry has no stated network),
-- every PCIe card (h100-pcie-80gb, h100-nvl-94gb, a100-pcie-*, l40s, l4, a10,
-- a10g, t4, rtx-*), and the single-unit systems gb10 (DGX Spark) and
-- jetson-agx-thor.

ALTER TABLE gpus ADD COLUMN scale_out_gb_s REAL CHECK (scale_out_gb_s IS NULL OR scale_out_gb_s > 0); -- per GPU, inter-node, one direction
ALTER TABLE gpus ADD COLUMN scale_out_source TEXT;      -- the reference node and its arithmetic

CREATE TRIGGER gpus_scale_out_source_insert BEFORE INSERT ON gpus
WHEN NEW.scale_out_gb_s IS NOT NULL AND NEW.scale_out_source IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a GPU number without its source');
END;

CREATE TRIGGER gpus_scale_out_source_update BEFORE UPDATE ON gpus
WHEN NEW.scale_out_gb_s IS NOT NULL AND NEW.scale_out_source IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a GPU number without its source');
END;

UPDATE gpus SET scale_out_gb_s = s.gb_s, scale_out_source = s.source
FROM (SELECT column1 AS id, column2 AS name, column3 AS gb_s, column4 AS source FROM (VALUES
-- NVIDIA DGX systems: one single-port ConnectX NIC per GPU for the compute fabric.
('h100-sxm-80gb', 'NVIDIA H100 SXM5 80GB', 50,
 'NVIDIA DGX H100 (eight H100 SXM5): "Four OSFP ports serving eight single-port NVIDIA ConnectX-7 VPI ... up to 400 Gb/s InfiniBand/Ethernet" (NVIDIA DGX BasePOD reference architecture, Core Components), the eight ports forming the InfiniBand compute fabric ("Eight ports in four OSFP connections are used for the InfiniBand compute fabric", DGX BasePOD deployment guide, Networking); storage and management use the separate dual-port ConnectX-7 cards. 8 x 400 Gb/s / 8 GPUs = 400 Gb/s = 50 GB/s per GPU, one direction'),
('h200-sxm-141gb', 'NVIDIA H200 SXM 141GB', 50,
 'NVIDIA DGX H200 (eight H200 SXM): "Four OSFP ports serving eight single-port NVIDIA ConnectX-7 VPI ... up to 400 Gb/s InfiniBand/Ethernet" (NVIDIA DGX BasePOD reference architecture, Core Components, DGX H200 and H100 systems), the eight ports forming the InfiniBand compute fabric (DGX BasePOD deployment guide, Networking). 8 x 400 Gb/s / 8 GPUs = 400 Gb/s = 50 GB/s per GPU, one direction'),
('b200', 'NVIDIA B200 (HGX/DGX B200)', 50,
 'NVIDIA DGX B200 (eight B200): "4x OSFP ports serving 8x single-port NVIDIA ConnectX-7 VPI, up to 400Gb/s InfiniBand/Ethernet", "Four of the ConnectX-7 OSFP are used for the compute fabric"; storage and management on 2x dual-port BlueField-3 (NVIDIA DGX BasePOD reference architecture, Core Components). 8 x 400 Gb/s / 8 GPUs = 400 Gb/s = 50 GB/s per GPU, one direction'),
('gb200', 'NVIDIA GB200 (per Blackwell GPU, GB200 NVL72)', 50,
 'NVIDIA DGX GB200 user guide, Hardware: each compute tray holds "2x Grace CPUs and 4x Blackwell GPUs" and, for the cluster network, "4x NVIDIA ConnectX-7 single port 400G OSFP NIC" (storage and management on 2x BlueField-3); the InfiniBand compute fabric links racks (user guide, Networking: computenet). 4 x 400 Gb/s / 4 GPUs = 400 Gb/s = 50 GB/s per GPU, one direction'),
('a100-sxm-80gb', 'NVIDIA A100 SXM4 80GB', 25,
 'NVIDIA DGX A100 640GB (eight A100 SXM4 80GB) datasheet, networking: 8x single-port Mellanox ConnectX-6 VPI 200Gb/s HDR InfiniBand for the compute fabric, besides 2x dual-port ConnectX-6 for storage and in-band management. 8 x 200 Gb/s / 8 GPUs = 200 Gb/s = 25 GB/s per GPU, one direction'),
('a100-sxm-40gb', 'NVIDIA A100 SXM4 40GB', 25,
 'NVIDIA DGX A100 320GB (eight A100 SXM4 40GB) datasheet, networking: 8x single-port Mellanox ConnectX-6 VPI 200Gb/s HDR InfiniBand for the compute fabric, besides a dual-port ConnectX-6 for storage. 8 x 200 Gb/s / 8 GPUs = 200 Gb/s = 25 GB/s per GPU, one direction'),
('v100-sxm-32gb', 'NVIDIA Tesla V100 SXM2 32GB', 6.25,
 'NVIDIA DGX-1 with Tesla V100 (eight V100 SXM2) datasheet, network: dual 10 GbE and 4 IB EDR, i.e. four single-port 100 Gb/s EDR InfiniBand NICs for the cluster (also naddod.com, "HPC Networking: Delivering High Performance for DGX Server", 2023-07-11: DGX-1 "is equipped with four single-port 100Gb/s IB/Ethernet NICs"). 4 x 100 Gb/s / 8 GPUs = 50 Gb/s = 6.25 GB/s per GPU, one direction'),
('v100-sxm-16gb', 'NVIDIA Tesla V100 SXM2 16GB', 6.25,
 'NVIDIA DGX-1 with Tesla V100 (eight V100 SXM2) datasheet, network: dual 10 GbE and 4 IB EDR, i.e. four single-port 100 Gb/s EDR InfiniBand NICs for the cluster (also naddod.com, "HPC Networking: Delivering High Performance for DGX Server", 2023-07-11). 4 x 100 Gb/s / 8 GPUs = 50 Gb/s = 6.25 GB/s per GPU, one direction'),
('gh200', 'NVIDIA GH200 Grace Hopper Superchip (96GB HBM3)', 25,
 'HPE Cray EX254n node as installed at CSCS Alps (the 4-GH200 node of this entry): "four Grace-Hopper modules and four corresponding network interface cards (NICs)" (eth-cscs/cscs-docs, docs/alps/hardware.md), HPE Slingshot 11 with 200 Gbps endpoints (HPE Slingshot switch description). 4 x 200 Gb/s / 4 GPUs = 200 Gb/s = 25 GB/s per GPU, one direction'),
-- AMD: no vendor node with a stated network for the MI300X; Azure's eight-GPU VM
-- is the published one. The MI250X node is HPE's Frontier blade.
('mi300x', 'AMD Instinct MI300X', 50,
 'Microsoft Azure ND MI300X v5 (eight MI300X, the published reference node; AMD''s MI300X platform specification covers the eight-OAM board, not the server''s NICs): "Infiniband: Supported, GPUDirect RDMA, 8x400 Gigabit NDR" (MicrosoftDocs/azure-docs, articles/virtual-machines/sizes/gpu-accelerated/nd-mi300x-v5-series.md). 8 x 400 Gb/s / 8 GPUs = 400 Gb/s = 50 GB/s per GPU, one direction'),
('mi250x', 'AMD Instinct MI250X', 25,
 'HPE Cray EX235a node (OLCF Frontier and Crusher, CSCS Alps mi200): four MI250X OAMs and "4 NICs -- one per OAM" (eth-cscs/cscs-docs, docs/alps/hardware.md), "four HPE Slingshot 200Gbps ... NICs (25GB/s), providing 800Gbps (100 GB/s) of node bandwidth" (OLCF Crusher node description as reported by meterpreter.org; glennklockwood.com/garden/systems/frontier: "4x Slingshot-11 NICs"). 200 Gb/s = 25 GB/s per MI250X, one direction'),
-- Intel Gaudi: three of each card's 24 on-chip RoCE ports face the scale-out network.
('gaudi2', 'Intel Gaudi 2 (HL-225H)', 37.5,
 'Intel Gaudi documentation, Network Configuration: "The scale-out bandwidth from each Gaudi 2 is 3*100Gbps = 37.5 GB/s in each direction" (three of the 24 on-chip 100GbE RoCE ports of each card in an eight-card HLS-Gaudi2 server; habana.ai Gaudi 2 networking page: 2.4 Tb/s scale-out per server = 8 x 3 x 100 Gb/s). 37.5 GB/s per GPU, one direction'),
('gaudi3', 'Intel Gaudi 3 (HL-325L OAM)', 75,
 'Intel Gaudi documentation, Network Configuration: each Gaudi 3 has "21 scale-up ports and three scale-out ports running at 200Gbps"; "The scale-out bandwidth from each Gaudi 3 is 3*200Gbps = 75 GB/s in each direction" (600 GB/s for an eight-card HLS-3 box). 75 GB/s per GPU, one direction')
)) AS s
WHERE gpus.id = s.id AND gpus.name = s.name AND gpus.revision = 1 AND gpus.scale_out_gb_s IS NULL;

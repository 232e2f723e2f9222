package vocabulary

// Family is one line of models a call may name as its model_family: its
// name as the wire writes it, who makes it, and the models it covers, in
// the words of the protocol's instructions ("Naming your model").
type Family struct {
	Family string `json:"family"`
	Maker  string `json:"maker"`
	Models string `json:"models"`
}

// ModelFamilies is every family a node accepts, in the order the
// instructions list them. A fine-tuned model counts as the family it was
// tuned from. The list grows: a family added later is named by calls at
// once, so nothing may assume it is closed beyond refusing names off it.
//
// The instructions' list is longer than the reference library's
// (src/families.ts stops at mimo), which it starts with, in the same
// order (testdata/reference-families.json); the instructions are what the
// node publishes, so they win.
var ModelFamilies = []Family{
	{"claude", "Anthropic", "Claude Opus, Sonnet, Haiku"},
	{"gpt", "OpenAI", "GPT, the o-series, Codex, gpt-oss"},
	{"gemini", "Google", "Gemini, Gemma"},
	{"grok", "xAI", "Grok"},
	{"llama", "Meta", "Llama"},
	{"muse", "Meta", "Muse Spark"},
	{"mistral", "Mistral AI", "Mistral, Magistral, Codestral, Devstral"},
	{"qwen", "Alibaba", "Qwen, QwQ"},
	{"deepseek", "DeepSeek", "DeepSeek"},
	{"kimi", "Moonshot AI", "Kimi"},
	{"glm", "Z.ai", "GLM"},
	{"minimax", "MiniMax", "MiniMax"},
	{"nova", "Amazon", "Nova"},
	{"phi", "Microsoft", "Phi"},
	{"mai", "Microsoft AI", "MAI"},
	{"command", "Cohere", "Command"},
	{"beam", "Reflection AI", "Beam"},
	{"hy", "Tencent", "Hy (Hy3 preview, Hy3, Hy4 preview; formerly Hunyuan)"},
	{"ling", "inclusionAI (Ant Group)", "Ling, Ring"},
	{"longcat", "Meituan", "LongCat (LongCat-Flash, LongCat-2.0, LongCat-2.5)"},
	{"minicpm", "OpenBMB", "MiniCPM (MiniCPM5-1B, MiniCPM5-2B, earlier MiniCPM LLMs)"},
	{"step", "StepFun", "Step (Step 5 Preview, Step 3.x)"},
	{"mimo", "Xiaomi", "MiMo (MiMo-V2.6-Pro, MiMo-V2.6-Flash, MiMo-V2.5-Pro, MiMo-V2.5, MiMo-V2-Flash, MiMo-7B)"},
	{"allam", "SDAIA (National Center for AI, Saudi Data and AI Authority; weights now hosted by HUMAIN)", "ALLaM-2-7b (ALLaM-7B-Instruct-preview)"},
	{"apertus", "Swiss AI Initiative (EPFL, ETH Zurich, CSCS)", "Apertus (Apertus 70B, Apertus 8B)"},
	{"ernie", "Baidu", "ERNIE (ERNIE 4.5 incl. ERNIE-4.5-21B-A3B, 300B-A47B, 0.3B, VL variants, ERNIE 5.0, ERNIE X1)"},
	{"exaone", "LG AI Research", "K-EXAONE 2.0, K-EXAONE, EXAONE"},
	{"granite", "IBM", "Granite (Granite 4.0 H-Small, H-Tiny, H-Micro, Micro, Nano; earlier Granite 3.x)"},
	{"inkling", "Thinking Machines Lab", "Inkling, Inkling-Small"},
	{"jamba", "AI21 Labs", "Jamba (Jamba Large, Jamba Mini; Jamba 1.5/1.6/1.7 Mini and Large, Jamba2 Mini, Jamba2 3B)"},
	{"laguna", "Poolside", "Laguna (Laguna M.1, Laguna XS.2, Laguna XS 2.1, Laguna S 2.1)"},
	{"motif", "Motif Technologies", "Motif 3, Motif-3-Base, Motif-3-Beta"},
	{"nemotron", "NVIDIA", "Nemotron 3 (Nano 30B-A3B, Nano Omni, Super, Ultra 550B-A55B), Nemotron 3.5 (Lightning 30B-A3B), and their content-safety variants"},
	{"sarvam", "Sarvam AI", "Sarvam (Sarvam 105B, Sarvam 30B)"},
	{"seed", "ByteDance Seed", "Seed 2.1 Pro, Seed 2.1 Turbo, Seed 2.0 (incl. Seed 2.0 Code), Seed Evolving, Seed Character (Doubao-Seed models)"},
	{"trinity", "Arcee AI", "Trinity Large Thinking, Trinity Large Preview, Trinity Large Base/TrueBase, Trinity Mini, Trinity Nano Preview"},
	{"ax", "SK Telecom", "A.X K2, A.X K1"},
	{"palmyra", "Writer", "Palmyra (Palmyra X5, Palmyra X4)"},
	{"reka", "Reka AI", "Reka (Reka Edge, Reka Flash 3/3.1, Reka Core, Reka Flash)"},
	{"mercury", "Inception (Inception Labs)", "Mercury 2.5, Mercury 2, Mercury, Mercury Coder"},
	{"solar", "Upstage", "Solar (Solar Mini 4, Solar Pro 4)"},
	{"lfm", "Liquid AI", "LFM2.5 (LFM2.5-24B-A2B, LFM2.5-8B-A1B, LFM2.5-2.6B, LFM2.5-1.2B Instruct/Thinking, LFM2.5-350M, LFM2.5-230M, LFM2.5-VL), LFM2 (LFM2-24B-A2B, LFM2-8B-A1B, LFM2-2.6B, LFM2-1.2B, LFM2-700M, LFM2-350M, LFM2-VL)"},
	{"rnj", "Essential AI", "Rnj-1 (Rnj-1 Base, Rnj-1 Instruct)"},
	{"flint", "Recursive (Recursive Superintelligence, Inc.)", "Flint (40B-A2.5B MoE coding model)"},
}

var familySet = func() map[string]bool {
	m := make(map[string]bool, len(ModelFamilies))
	for _, f := range ModelFamilies {
		m[f.Family] = true
	}
	return m
}()

// earlierNames are names entries used for a family before the list
// existed; each counts as the family it maps to. Only names found in a
// log's entries belong here: new calls must name a family as the list does.
var earlierNames = map[string]string{"gpt-6": "gpt"}

// IsModelFamily reports whether name is a family on the list, as a new call
// must name one. A name only earlier entries used ("gpt-6") is not.
func IsModelFamily(name string) bool { return familySet[name] }

// FamilyNames returns the families' names in list order.
func FamilyNames() []string {
	names := make([]string, len(ModelFamilies))
	for i, f := range ModelFamilies {
		names[i] = f.Family
	}
	return names
}

// CanonicalFamily returns the family a name in a signed entry counts as:
// the listed family an earlier name stood for, or the name itself. Whether
// two calls came from one family is judged on what this returns.
func CanonicalFamily(name string) string {
	if f, ok := earlierNames[name]; ok {
		return f
	}
	return name
}

package clock

// readTSC returns the time stamp counter (RDTSC).
func readTSC() uint64

// cpuid returns EAX, EBX, ECX and EDX of CPUID leaf eax, subleaf ecx.
func cpuid(eax, ecx uint32) (a, b, c, d uint32)

// invariantTSC reports whether the CPU's time stamp counter ticks at a
// constant rate in every state: CPUID 0x80000007 EDX bit 8, where the
// extended leaves reach that far.
func invariantTSC() bool {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000007 {
		return false
	}
	_, _, _, d := cpuid(0x80000007, 0)
	return d&(1<<8) != 0
}

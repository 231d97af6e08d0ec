# resolve_user SYMS: for each user address on stdin (0x..., one per line),
# the function of SYMS it is in ("ADDRESS TYPE NAME" lines sorted by
# address, as nm -n prints them; scripts/initramfs.sh makes them on the
# host), "?" below the first.  Sourced by tests/guest/54-unwind.sh and
# tests/show-features.sh.
resolve_user() {
	awk -v syms="$1" '
		function hex(s,   i, n) {
			s = tolower(s); sub(/^0x/, "", s); n = 0
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		BEGIN { while ((getline l < syms) > 0) { split(l, f, " "); A[n] = hex(f[1]); S[n++] = f[3] } }
		{ x = hex($1); best = "?"; for (i = 0; i < n && A[i] <= x; i++) best = S[i]; print best }'
}

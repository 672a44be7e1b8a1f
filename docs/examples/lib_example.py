"""rktlcs from Python (docs/library.md): the same as lib_example.c, and a hamming matrix."""
import rktlcs

r = rktlcs.align("ACGTTGCA", "TTTTACGTAGCATTTT", mode="infix")
print("lev\t%d\t%d\t%d\t%s" % (r["distance"], r["start"], r["end"], r["cigar"]))
l = rktlcs.lcs_align("ACGTTGCA", "TTTTACGTAGCATTTT")
print("lcs\t%d\t%s" % (l["length"], l["subsequence"]))
print("hamming", [list(map(int, row)) for row in rktlcs.hamming(["ACGT", "ACGA", "TCGA"])])

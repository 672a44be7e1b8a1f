# exact output samples: input, options ('-': none), expected output (htslib .tst style)
good.aln	-	good.out
good.aln	-c -b -L	good-c-b-L.out
good.aln	-b -x 2	good-b-x2.out
good.aln	-m	good-m.out
good.aln	-c --max-dist 3	good-c-maxdist3.out
ambig.aln	-	ambig.out
ambig.aln	-a	ambig-a.out
lowercase.aln	-	lowercase.out
lowercase.aln	-k	lowercase-k.out
lowercase.aln	-a -k	lowercase-a-k.out

/* rktlcs: thin entry point; everything else is in the libraries (docs/DEVELOPING.md). */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return rcli_main(argc, argv);
}

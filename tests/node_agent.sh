#!/bin/bash
# Open MPI's launch agent (plm_rsh_agent) for two "nodes" on one machine (tests/nodes.sh):
# mpirun calls it as `node_agent.sh HOST COMMAND...` to start its daemon (orted) on HOST, as
# it would call ssh. It starts the daemon here instead, in its own UTS and mount namespaces:
# the daemon and its ranks see HOST as their host name, and Open MPI's locality (what
# MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and the shared-memory transport go by) puts them
# on another node than mpirun's, so they talk to the first node's ranks over TCP. With
# NODE_AGENT_BIND="SRC DST" (two directories) the node sees SRC at DST: a node-local file
# system under one path. As root, or through a user namespace where they are allowed.
# NODE_AGENT_LOG=FILE records each call.
host=$1; shift
[ -n "${NODE_AGENT_LOG:-}" ] && echo "node_agent: $host: $*" >> "$NODE_AGENT_LOG"
# the command comes as ssh would pass it: one string for a remote shell
# shellcheck disable=SC2016  # expanded by the inner shell
inner='hostname "$1" || exit 1
if [ -n "${NODE_AGENT_BIND:-}" ]; then
	set -- "$1" "$2" $NODE_AGENT_BIND
	mount --bind "$3" "$4" || exit 1
fi
exec /bin/sh -c "$2"'
if [ "$(id -u)" = 0 ]; then
	exec unshare --uts --mount /bin/bash -c "$inner" node_agent "$host" "$*"
fi
exec unshare --user --map-root-user --uts --mount /bin/bash -c "$inner" node_agent "$host" "$*"

# test/perl/XidTest.pm: what the TAP tests in test/t share, on top of
# PostgreSQL::Test::Cluster.  make prove_installcheck puts test/perl on
# Perl's include path.
package XidTest;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(xid_node have_extension kill9_all major);

# xid_node(NAME, [preload => 0|1], [conf => TEXT], [initdb => [ARGS]]): a
# new node, initialised and started.  preload (the default) puts xid in
# shared_preload_libraries, as a production server has it; conf is
# appended to postgresql.conf.
sub xid_node
{
	my ($name, %opts) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(
		allows_streaming => $opts{allows_streaming} // 0,
		extra => $opts{initdb} // []);
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'xid'")
	  if $opts{preload} // 1;
	$node->append_conf('postgresql.conf', $opts{conf}) if $opts{conf};
	$node->start;
	return $node;
}

# have_extension(NODE, NAME): is extension NAME available on NODE's
# installation?  For plan skip_all when a package is not installed here.
sub have_extension
{
	my ($node, $name) = @_;
	return $node->safe_psql('postgres',
		"SELECT count(*) FROM pg_available_extensions WHERE name = '$name'")
	  eq '1';
}

# kill9_all(NODE): SIGKILL to the postmaster and every process it started,
# at once, as a power loss would stop them (the node's kill9 stops the
# postmaster only, and its children keep the shared memory until they
# notice)
sub kill9_all
{
	my ($node) = @_;
	my $pm = $node->{_pid};
	my @pids = ($pm, grep { /^\d+$/ } split /\s+/, `pgrep -P $pm`);
	kill 'KILL', @pids;
	# the node's own kill9 forgets the pid (the postmaster is already gone)
	$node->kill9;
	for (1 .. 100)
	{
		last unless kill 0, @pids;
		select(undef, undef, undef, 0.1);
	}
	return;
}

# major(NODE): the node's PostgreSQL major version, a number
sub major
{
	my ($node) = @_;
	return $node->pg_version->major;
}

1;

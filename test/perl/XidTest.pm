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
use IPC::Run ();
use POSIX ();
use Time::HiRes ();

our @EXPORT = qw(xid_node have_extension kill9_all major writers stop_writers);

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

# writers(NODE, DIR, ARGS): pgbench with ARGS (clients, a script, a user,
# a database) against NODE, in runs of 2 s one after another until
# stop_writers, whatever the steps between take (pgbench's -T must be known
# in advance; the gap between runs is their connecting).  Each run writes
# DIR/pgbench_K.out, and its -l logs in DIR.  The sessions' application
# name is pgbench's own.  Returns after the first second, the writers
# running.
sub writers
{
	my ($node, $dir, @args) = @_;
	my $parent = $$;
	my $pid = fork // die "fork: $!";
	if ($pid == 0)
	{
		chdir $dir or POSIX::_exit(1);
		delete $ENV{PGAPPNAME};
		# until told, or until the test is gone (it died, its nodes too)
		for (my $k = 1; !-e "$dir/stop" && getppid() == $parent; $k++)
		{
			IPC::Run::run([ 'pgbench', '-h', $node->host, '-p', $node->port, '-T', '2', @args ],
				'>', "pgbench_$k.out", '2>&1')
			  or append_to_file("$dir/failed", "pgbench_$k.out\n");
		}
		POSIX::_exit(0);    # not the parent's END blocks, that stop the nodes
	}
	Time::HiRes::sleep(1);
	return { pid => $pid, dir => $dir };
}

# stop_writers(HANDLE): ends the writers of writers() once their run under
# way ends; returns the number of runs, then the output of each that failed
sub stop_writers
{
	my ($w) = @_;
	my $dir = $w->{dir};
	append_to_file("$dir/stop", '');
	waitpid($w->{pid}, 0);
	my @failed = -e "$dir/failed" ? split /\n/, slurp_file("$dir/failed") : ();
	return (scalar(my @runs = glob "$dir/pgbench_*.out"), map { slurp_file("$dir/$_") } @failed);
}

1;

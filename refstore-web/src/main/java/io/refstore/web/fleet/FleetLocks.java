package io.refstore.web.fleet;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Locks the nodes of a fleet share: Spring Integration's {@link JdbcLockRegistry} over
 * {@code INT_LOCK} on PostgreSQL, where several nodes work on one database; plain
 * in-process locks on H2, where a node is alone.
 */
@Configuration(proxyBeanMethods = false)
class FleetLocks {

	/** How long a lock a node holds lives without being renewed (a node that dies). */
	static final int TIME_TO_LIVE_MILLIS = 60_000;

	@Bean
	@Profile("postgres")
	DefaultLockRepository fleetLockRepository(DataSource dataSource) {
		DefaultLockRepository repository = new DefaultLockRepository(dataSource);
		repository.setRegion("refstore-fleet");
		repository.setTimeToLive(TIME_TO_LIVE_MILLIS);
		return repository;
	}

	@Bean
	@Profile("postgres")
	LockRegistry<?> fleetLockRegistry(DefaultLockRepository fleetLockRepository) {
		return new JdbcLockRegistry(fleetLockRepository);
	}

	@Bean
	@Profile("!postgres")
	LockRegistry<?> localLockRegistry() {
		return new DefaultLockRegistry();
	}

}

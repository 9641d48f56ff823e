package io.refstore.web.jobs;

/**
 * What the launch forms post; each form uses the fields its job takes. Mutable, as
 * Spring's data binding wants.
 */
public class LaunchForm {

	private String repo = "";

	private String targetFormat = "reftable";

	private boolean reflogs = true;

	private int chunkSize = 100_000;

	private int throttleMillis;

	private boolean dryRun;

	private boolean readersChecked;

	private boolean force;

	private String prefixes = "";

	private String globs = "";

	private String excludes = "";

	private String namespaces = "";

	private String mergedInto = "";

	private String olderThan = "";

	private String notUpdatedSince = "";

	private String manifest = "";

	private String backup = "";

	private String confirmRepository = "";

	private boolean overrideProtection;

	private String overrideReason = "";

	public String getRepo() {
		return this.repo;
	}

	public void setRepo(String repo) {
		this.repo = repo;
	}

	public String getTargetFormat() {
		return this.targetFormat;
	}

	public void setTargetFormat(String targetFormat) {
		this.targetFormat = targetFormat;
	}

	public boolean isReflogs() {
		return this.reflogs;
	}

	public void setReflogs(boolean reflogs) {
		this.reflogs = reflogs;
	}

	public int getChunkSize() {
		return this.chunkSize;
	}

	public void setChunkSize(int chunkSize) {
		this.chunkSize = chunkSize;
	}

	public int getThrottleMillis() {
		return this.throttleMillis;
	}

	public void setThrottleMillis(int throttleMillis) {
		this.throttleMillis = throttleMillis;
	}

	/**
	 * Whether the administrator confirmed that every git opening the repository reads its
	 * target format (a real migration to reftable needs git 2.45 or later).
	 */
	public boolean isReadersChecked() {
		return this.readersChecked;
	}

	public void setReadersChecked(boolean readersChecked) {
		this.readersChecked = readersChecked;
	}

	public boolean isDryRun() {
		return this.dryRun;
	}

	public void setDryRun(boolean dryRun) {
		this.dryRun = dryRun;
	}

	public boolean isForce() {
		return this.force;
	}

	public void setForce(boolean force) {
		this.force = force;
	}

	public String getPrefixes() {
		return this.prefixes;
	}

	public void setPrefixes(String prefixes) {
		this.prefixes = prefixes;
	}

	public String getGlobs() {
		return this.globs;
	}

	public void setGlobs(String globs) {
		this.globs = globs;
	}

	public String getExcludes() {
		return this.excludes;
	}

	public void setExcludes(String excludes) {
		this.excludes = excludes;
	}

	public String getManifest() {
		return this.manifest;
	}

	public void setManifest(String manifest) {
		this.manifest = manifest;
	}

	public String getBackup() {
		return this.backup;
	}

	public void setBackup(String backup) {
		this.backup = backup;
	}

	public boolean isOverrideProtection() {
		return this.overrideProtection;
	}

	public void setOverrideProtection(boolean overrideProtection) {
		this.overrideProtection = overrideProtection;
	}

	public String getOverrideReason() {
		return this.overrideReason;
	}

	public void setOverrideReason(String overrideReason) {
		this.overrideReason = overrideReason;
	}

	/**
	 * The repository's name as typed to confirm a rollback or restore (they replace or
	 * rewrite refs of a live repository).
	 */
	public String getConfirmRepository() {
		return this.confirmRepository;
	}

	public void setConfirmRepository(String confirmRepository) {
		this.confirmRepository = confirmRepository;
	}

	public String getNamespaces() {
		return this.namespaces;
	}

	public void setNamespaces(String namespaces) {
		this.namespaces = namespaces;
	}

	public String getMergedInto() {
		return this.mergedInto;
	}

	public void setMergedInto(String mergedInto) {
		this.mergedInto = mergedInto;
	}

	public String getOlderThan() {
		return this.olderThan;
	}

	public void setOlderThan(String olderThan) {
		this.olderThan = olderThan;
	}

	public String getNotUpdatedSince() {
		return this.notUpdatedSince;
	}

	public void setNotUpdatedSince(String notUpdatedSince) {
		this.notUpdatedSince = notUpdatedSince;
	}

}

package io.pacer.server;

import io.pacer.model.InvalidDefinitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A first start's campaigns file read ahead: taken only while the file still holds the bytes read. */
class CampaignsFilePreloadTest
{
    @TempDir
    Path dir;

    @Test
    void shouldGiveTheCampaignsOfTheFileAsItStillIs() throws Exception
    {
        final Path file = dir.resolve("campaigns.json");
        TestPacer.writeCampaigns(file, asap(1, 1_000), asap(2, 2_000));
        final CampaignsFilePreload.Read read = CampaignsFilePreload.start(file, dir.resolve("applied.json")).takeIfUnchanged();
        assertThat(read.content()).isEqualTo(Files.readAllBytes(file));
        assertThat(read.changeOrThrow().changed()).extracting(d -> d.id()).containsExactly(1L, 2L);
    }

    @Test
    void shouldGiveNothingOnceTheFileChanged() throws Exception
    {
        final Path file = dir.resolve("campaigns.json");
        TestPacer.writeCampaigns(file, asap(1, 1_000));
        final CampaignsFilePreload preload = CampaignsFilePreload.start(file, null);
        assertThat(preload.takeIfUnchanged()).isNotNull();
        TestPacer.writeCampaigns(file, asap(1, 1_001));
        assertThat(preload.takeIfUnchanged()).isNull();
    }

    @Test
    void shouldNotReadAheadWhereAnAppliedCopyIsComparedOrThereIsNoFile() throws Exception
    {
        final Path file = dir.resolve("campaigns.json");
        assertThat(CampaignsFilePreload.start(file, null)).isNull();
        TestPacer.writeCampaigns(file, asap(1, 1_000));
        final Path copy = dir.resolve("applied.json");
        Files.copy(file, copy);
        assertThat(CampaignsFilePreload.start(file, copy)).isNull();
    }

    @Test
    void shouldKeepTheErrorOfAnInvalidFileForTheLoadToReport() throws Exception
    {
        final Path file = dir.resolve("campaigns.json");
        Files.writeString(file, "{\"campaigns\":[{\"id\":1}]}");
        final CampaignsFilePreload.Read read = CampaignsFilePreload.start(file, null).takeIfUnchanged();
        assertThatThrownBy(read::changeOrThrow).isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("campaigns[0]");
    }
}

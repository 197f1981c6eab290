// The peer of a JPEG capture's replay: decodes JPEG files to their Y'CbCr planes with
// libjpeg-turbo as PointPaint's JPEGDecoder does (accurate integer IDCT, warnings stop the
// decode, one decompressor per thread, the planes allocated per frame), on THREADS threads that
// take the files in turn, and nothing else. Prints the frame count and a checksum of the planes.
//   cc -O2 -o jpeg_planes jpeg_planes.c -lturbojpeg -lpthread
//   jpeg_planes THREADS FILE...
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <turbojpeg.h>

static char **files;
static int file_count, thread_count;

typedef struct { int index; uint64_t checksum; int frames; } job;

static void *decode(void *argument) {
    job *j = argument;
    tjhandle handle = tjInitDecompress();
    for (int f = j->index; f < file_count; f += thread_count) {
        FILE *in = fopen(files[f], "rb");
        if (!in) { perror(files[f]); exit(1); }
        fseek(in, 0, SEEK_END);
        long size = ftell(in);
        fseek(in, 0, SEEK_SET);
        unsigned char *bytes = malloc(size);
        if (fread(bytes, 1, size, in) != (size_t)size) { perror(files[f]); exit(1); }
        fclose(in);
        int width, height, sampling, colourspace;
        if (tjDecompressHeader3(handle, bytes, size, &width, &height, &sampling, &colourspace) != 0) {
            fprintf(stderr, "%s: %s\n", files[f], tjGetErrorStr2(handle));
            exit(1);
        }
        unsigned char *planes[3];
        int strides[3];
        for (int p = 0; p < 3; p++) {
            strides[p] = tjPlaneWidth(p, width, sampling);
            planes[p] = malloc((size_t)strides[p] * tjPlaneHeight(p, height, sampling));
        }
        if (tjDecompressToYUVPlanes(handle, bytes, size, planes, width, strides, height,
                                    TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING) != 0) {
            fprintf(stderr, "%s: %s\n", files[f], tjGetErrorStr2(handle));
            exit(1);
        }
        j->checksum += planes[0][(f * 7919) % (strides[0] * height)] + planes[1][f % strides[1]] + planes[2][f % strides[2]];
        j->frames++;
        for (int p = 0; p < 3; p++) free(planes[p]);
        free(bytes);
    }
    tjDestroy(handle);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: jpeg_planes THREADS FILE...\n"); return 2; }
    thread_count = atoi(argv[1]);
    files = argv + 2;
    file_count = argc - 2;
    pthread_t threads[64];
    job jobs[64] = {0};
    for (int t = 0; t < thread_count && t < 64; t++) {
        jobs[t].index = t;
        pthread_create(&threads[t], NULL, decode, &jobs[t]);
    }
    uint64_t checksum = 0;
    int frames = 0;
    for (int t = 0; t < thread_count && t < 64; t++) {
        pthread_join(threads[t], NULL);
        checksum += jobs[t].checksum;
        frames += jobs[t].frames;
    }
    printf("%d frames decoded to planes, checksum %llu\n", frames, (unsigned long long)checksum);
    return 0;
}
